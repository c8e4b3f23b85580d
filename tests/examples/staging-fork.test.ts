/**
 * examples/staging-fork through the real plugin host: a fork of a source made by the
 * program, then of a source given by `sourceServiceId`.
 */
import stagingFork = require("../../examples/staging-fork");
import { expectNoErrors } from "../../harness";
import type { Cloud } from "../../harness/cloud";
import { expectNoDrift, expectSecretOutput, inventory, ops, previewWithoutWrites, example } from "./support";

const { cfg, start: startExampleCloud } = example("staging-fork");

describe("examples/staging-fork", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startExampleCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  describe("without sourceServiceId: forks a small source it makes itself", () => {
    it("forks the source from its last snapshot", async () => {
      const r = expectNoErrors(await cloud.stack.up(stagingFork));
      expect(ops(r)).toEqual({ source: "create", staging: "create" });
      const sourceId = cloud.stack.resource("source").id;
      expect(r.outputs.forkedFrom).toMatchObject({ serviceId: sourceId, isStandby: false });

      const fork = await cloud.api.perform("getService", { service: String(r.outputs.stagingId) });
      expect(fork).toMatchObject({
        name: "orders-staging",
        status: "READY",
        forked_from: { service_id: sourceId },
        metadata: { environment: "DEV" },
        endpoint: { host: r.outputs.host },
      });
      expect((await cloud.api.perform("getService", { service: sourceId })).name).toBe("orders-source");
      expectSecretOutput(cloud, r, "password");
    });

    it("changes nothing on a second up", async () => {
      await expectNoDrift(cloud, stagingFork);
    });

    it("previews another strategy as a replacement of the fork only", async () => {
      cloud.stack.setConfig(cfg("strategy"), "NOW");
      const r = await previewWithoutWrites(cloud, stagingFork);
      expect(ops(r)).toEqual({ source: "same", staging: "replace,delete-replaced" });
    });

    it("destroys the fork, then its source", async () => {
      const r = expectNoErrors(await cloud.stack.destroy());
      expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete staging", "delete source"]);
      expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
    });
  });

  describe("with sourceServiceId: forks an existing service, which it leaves alone", () => {
    let sourceId: string;
    beforeAll(async () => {
      const made = await cloud.api.perform("createService", { body: { name: "orders-prod", cpu_millis: "1000", memory_gbs: "4" } });
      sourceId = made.service_id;
      await cloud.api.waitForService(sourceId, { until: ["READY"], timeoutMs: 10_000 });
      cloud.stack.setConfig(cfg("sourceServiceId"), sourceId);
      cloud.stack.setConfig(cfg("strategy"), "NOW");
    });

    it("forks the given service, sized like it", async () => {
      const r = expectNoErrors(await cloud.stack.up(stagingFork));
      expect(ops(r)).toEqual({ staging: "create" });
      expect(r.outputs.forkedFrom).toMatchObject({ serviceId: sourceId });
      const fork = await cloud.api.perform("getService", { service: String(r.outputs.stagingId) });
      expect(fork.forked_from?.service_id).toBe(sourceId);
      expect(fork.resources?.[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
      expectSecretOutput(cloud, r, "password");
    });

    it("changes nothing on a second up", async () => {
      await expectNoDrift(cloud, stagingFork);
    });

    it("previews a point-in-time fork as a replacement, then makes it", async () => {
      const created = (await cloud.api.perform("getService", { service: sourceId })).created;
      const oldId = cloud.stack.resource("staging").id;
      cloud.stack.setConfig(cfg("strategy"), "PITR");
      cloud.stack.setConfig(cfg("targetTime"), created);
      const p = await previewWithoutWrites(cloud, stagingFork);
      expect(ops(p)).toEqual({ staging: "replace,delete-replaced" });

      const r = expectNoErrors(await cloud.stack.up(stagingFork));
      expect(ops(r)).toEqual({ staging: "replace,delete-replaced" });
      expect(r.outputs.stagingId).not.toBe(oldId);
      expect((await cloud.api.perform("getService", { service: String(r.outputs.stagingId) })).forked_from?.service_id).toBe(sourceId);
      await expect(cloud.api.perform("getService", { service: oldId })).rejects.toMatchObject({ status: 404 });
    });

    it("destroys the fork only", async () => {
      const r = expectNoErrors(await cloud.stack.destroy());
      expect(ops(r)).toEqual({ staging: "delete" });
      expect(await inventory(cloud)).toEqual({ services: [sourceId], vpcs: [] });
      await cloud.api.perform("deleteService", { service: sourceId });
    });
  });
});
