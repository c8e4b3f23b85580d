/**
 * The database of an application, changed only through pull requests: a VPC and a
 * service attached to it with the pooler on. A pull request that edits this file gets a
 * `pulumi preview` from CI; merging it to main runs `pulumi up` (see
 * .github/workflows/clouddb.yml). The size comes from the stack config, so a change can
 * also be a one-line edit of `Pulumi.<stack>.yaml`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const net = new clouddb.Vpc("net", { name: "app-net", cidr: "10.30.0.0/16", regionCode: "us-east-1" });
  const db = new clouddb.Service("db", {
    name: "app-db",
    cpuMillis: config.getNumber("cpuMillis") ?? 1000,
    memoryGbs: config.getNumber("memoryGbs") ?? 4,
    vpcId: net.vpcId,
    connectionPooler: true,
  });
  return { host: db.host, port: db.port, poolerHost: db.poolerHost, password: db.password };
};
