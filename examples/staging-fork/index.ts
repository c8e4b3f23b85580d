/**
 * A staging copy of a production service, made by forking it. `sourceServiceId` names
 * the production service; without it, the program makes a small source itself.
 * `strategy` is LAST_SNAPSHOT (default), NOW, or PITR with `targetTime`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const sourceId = config.get("sourceServiceId") ?? new clouddb.Service("source", { name: "orders-source" }).serviceId;
  const strategy = (["LAST_SNAPSHOT", "NOW", "PITR"] as const).find((s) => s === config.get("strategy")) ?? "LAST_SNAPSHOT";

  const staging = new clouddb.Service("staging", {
    name: "orders-staging",
    forkFrom: { serviceId: sourceId, strategy, targetTime: config.get("targetTime") },
    environment: "DEV",
  });
  return { stagingId: staging.serviceId, forkedFrom: staging.forkedFrom, host: staging.host, password: staging.password };
};
