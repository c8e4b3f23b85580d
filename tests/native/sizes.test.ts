/**
 * A service's size in the native plugin's SDKs: an integer, 0 for the shared plan, so that
 * Go, Java and Python type `cpuMillis` and `memoryGbs` exactly (the package schema says
 * `integer`); the core, the API's requests and the dynamic SDK keep `"shared"`. Through the
 * plugin's server (support.ts `NativePlugin.forBehaviour`) against the emulator: Check, Create,
 * Diff, Update, Read (a refresh of state plugin 0.2.0 wrote with `"shared"`) and the lookups.
 */
import * as fs from "fs";
import * as path from "path";
import type { EmulatorControl } from "../../emulator/control-client";
import { REPO_ROOT } from "../../harness";
import type { ClouddbClient } from "../../provider/client";
import { behaviourRig, type BehaviourRig, type NativePlugin, urnOf } from "./support";

type Props = Record<string, unknown>;

/** The engine's DiffResponse.changes: none, some. */
const [DIFF_NONE, DIFF_SOME] = [1, 2];

describe("a service's size in the native SDKs' form", () => {
  let rig: BehaviourRig;
  let plugin: NativePlugin;
  let api: ClouddbClient;
  let control: EmulatorControl;
  const urn = urnOf("Service", "small");
  beforeAll(async () => {
    rig = await behaviourRig();
    ({ plugin, api, control } = rig);
  });
  afterAll(() => rig.close());

  it("the package schema types every size an integer: no union is left for Go to make interface{}", () => {
    const schema = fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8");
    const service = (JSON.parse(schema) as { resources: Record<string, { inputProperties: Props; properties: Props }> }).resources[
      "clouddb:index:Service"
    ];
    expect(service.inputProperties.cpuMillis).toMatchObject({ type: "integer" });
    expect(service.properties.memoryGbs).toMatchObject({ type: "integer" });
    expect(schema).not.toContain("oneOf");
    const go = fs.readFileSync(path.join(REPO_ROOT, "sdk-native/go/clouddb/service.go"), "utf8");
    expect(go).toContain("CpuMillis pulumi.IntOutput");
    expect(go).toContain("MemoryGbs pulumi.IntPtrInput");
  });

  it("0/0 is the shared plan: checked, created shared, recorded and looked up as 0, no change planned for the same inputs", async () => {
    const checked = await plugin.check(urn, { name: "small", cpuMillis: 0, memoryGbs: 0 });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });

    const made = await plugin.create(urn, checked.inputs);
    try {
      expect(made.outs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect((made.outs.resources as Props[])[0]).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      // The API made it on the shared plan, which it shows as 0/0.
      const live = await api.perform("getService", { service: made.id });
      expect(live.resources?.[0]?.spec).toMatchObject({ cpu_millis: 0, memory_gbs: 0 });

      const same = await plugin.diff(urn, made.id, made.outs, checked.inputs);
      expect(same.diffs).toEqual([]);
      const larger = await plugin.diff(urn, made.id, made.outs, { ...checked.inputs, cpuMillis: 500, memoryGbs: 2 });
      expect(larger.diffs.sort()).toEqual(["cpuMillis", "memoryGbs"]);
      expect(larger.replaces).toEqual([]);

      const one = await plugin.invoke("clouddb:index:getService", { serviceId: made.id });
      expect(one.result).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      const all = await plugin.invoke("clouddb:index:getServices", {});
      const listed = Object.values(all.result).flat() as Props[];
      expect(listed.find((s) => s.serviceId === made.id)).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });

      const resized = await plugin.update(urn, made.id, made.outs, { ...checked.inputs, cpuMillis: 500, memoryGbs: 2 });
      expect(resized).toMatchObject({ cpuMillis: 500, memoryGbs: 2 });
      const back = await plugin.update(urn, made.id, resized, checked.inputs);
      expect(back).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect((await api.perform("getService", { service: made.id })).resources?.[0]?.spec).toMatchObject({ cpu_millis: 0 });
    } finally {
      await plugin.delete(urn, made.id, made.outs);
    }
  });

  it('state plugin 0.2.0 wrote with "shared": an up records 0 sending nothing, and so does a refresh', async () => {
    const checked = await plugin.check(urn, { name: "older", cpuMillis: 0, memoryGbs: 0 });
    const made = await plugin.create(urn, checked.inputs);
    try {
      const older = (v: Props): Props => ({ ...v, cpuMillis: "shared", memoryGbs: "shared" });
      const recorded = {
        ...older(made.outs),
        resources: (made.outs.resources as Props[]).map(older),
      };
      const oldInputs = older(checked.inputs);
      // A program of 0.2.0 that still says "shared" (Python does not check the type) is checked as before, and given 0 back.
      const rechecked = await plugin.check(urn, oldInputs, oldInputs);
      expect(rechecked.failures).toEqual([]);
      expect(rechecked.inputs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      // An up: an update that changes no key and sends nothing, recording 0 (Go and Java read the output typed).
      const diff = await plugin.diff(urn, made.id, recorded, checked.inputs);
      expect(diff).toMatchObject({ changes: DIFF_SOME, diffs: [], replaces: [] });
      await control.clearRequests();
      const updated = await plugin.update(urn, made.id, recorded, checked.inputs);
      expect(updated).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect((updated.resources as Props[])[0]).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect((await control.requests()).filter((r) => r.method !== "GET")).toEqual([]);
      expect((await plugin.diff(urn, made.id, updated, checked.inputs)).changes).toBe(DIFF_NONE);
      // Or a refresh.
      const refreshed = await plugin.read(urn, made.id, recorded, oldInputs);
      expect(refreshed.outs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect((refreshed.outs.resources as Props[])[0]).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
      expect(refreshed.inputs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
    } finally {
      await plugin.delete(urn, made.id, made.outs);
    }
  });
});
