/**
 * Quickstart: a VPC, a database service attached to it with the connection pooler on,
 * and a read replica set. Exports how to connect; the password is a secret.
 */
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const net = new clouddb.Vpc("net", { name: "quickstart-net", cidr: "10.10.0.0/16", regionCode: "us-east-1" });

  const db = new clouddb.Service(
    "db",
    {
      name: "quickstart-db",
      cpuMillis: 1000,
      memoryGbs: 4,
      vpcId: net.vpcId,
      connectionPooler: true,
    },
    // The API cannot rename a service: a new name replaces it with an empty one. Set
    // `protect: true` on a database whose data you keep (see examples/production).
    { protect: false },
  );

  const reporting = new clouddb.ReadReplicaSet("reporting", {
    serviceId: db.serviceId,
    name: "reporting",
    nodes: 1,
    cpuMillis: 500,
    memoryGbs: 2,
  });

  return {
    vpcId: net.vpcId,
    serviceId: db.serviceId,
    host: db.host,
    port: db.port,
    poolerHost: db.poolerHost,
    poolerPort: db.poolerPort,
    password: db.password, // secret: `pulumi stack output password --show-secrets`
    replicaHost: reporting.host,
  };
};
