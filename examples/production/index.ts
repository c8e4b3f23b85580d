/**
 * A production service: two HA replicas (one synchronous), tagged PROD, sized 4 CPU /
 * 16 GB, protected so that no `pulumi up` or `destroy` can delete it by accident.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const db = new clouddb.Service(
    "orders",
    {
      name: "orders-prod",
      serviceType: "RELATIONAL",
      cpuMillis: 4000,
      memoryGbs: 16,
      haReplicas: { replicaCount: 2, syncReplicaCount: 1 },
      environment: "PROD",
      connectionPooler: true,
      password: config.getSecret("dbPassword"),
      timeouts: { create: "45m", update: "30m" },
    },
    { protect: config.getBoolean("protect") ?? true },
  );
  return { serviceId: db.serviceId, host: db.host, port: db.port, password: db.password };
};
