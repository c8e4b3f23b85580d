/**
 * Upgrades, in the style of pulumi/providertest's `PreviewProviderUpgrade`: the state a
 * stack of every resource kind has under each earlier release (a fixture recorded with
 * `record.ts`, beside the emulator state it describes) is loaded, and the code of today
 * previews, refreshes and updates it without any change, then destroys it.
 */
import * as fs from "fs";
import * as path from "path";
import { expectNoErrors, type UpResult, type RefreshResult } from "../../harness";
import { writes } from "../../harness/cloud";
import type { Checkpoint } from "../../harness/checkpoint";
import { ADOPTED_KEY } from "../../provider/framework/adoption";
import { load, type Loaded } from "./load";
import { upgradeProgram } from "./program";

/** Every recorded release, oldest first. */
const releases = fs.readdirSync(path.join(__dirname, "fixtures")).sort();

/**
 * The steps the first `up` after an upgrade from a release shows: none, but for state that
 * does not record whether the stack adopted each resource (0.1.0), an update of each that
 * records it and sends nothing (framework/adoption.ts).
 */
function firstChanges(c: Checkpoint): string[] {
  return c.resources.filter((r) => !(ADOPTED_KEY in r.outputs)).map((r) => `update ${r.name}`);
}

/** The steps that are not `same`, as `op name`. */
function changes(r: UpResult | RefreshResult): string[] {
  return r.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`);
}

describe.each(releases)("a stack recorded under release %s", (release) => {
  let f: Loaded;
  beforeAll(async () => {
    f = await load(release);
  });
  afterAll(async () => {
    await f.close();
  });

  it("previews with no change (0.1.0: an update of each resource, recording whether it was adopted) and sends no write", async () => {
    await f.controls.clearRequests();
    const r = expectNoErrors(await f.stack.preview(() => upgradeProgram()));
    expect(changes(r).sort()).toEqual(firstChanges(f.checkpoint).sort());
    expect(r.steps.map((s) => s.name).sort()).toEqual(f.checkpoint.resources.map((x) => x.name).sort());
    expect(writes(await f.controls.requests())).toEqual([]);
  });

  it("refreshes with no change (0.1.0: shown as an update of each, until an `up` records adoption), and then previews as before", async () => {
    const refreshed = expectNoErrors(await f.stack.refresh());
    expect(changes(refreshed).sort()).toEqual(
      firstChanges(f.checkpoint)
        .map((c) => `refresh-${c}`)
        .sort(),
    );
    const r = expectNoErrors(await f.stack.preview(() => upgradeProgram()));
    expect(changes(r).sort()).toEqual(firstChanges(f.checkpoint).sort());
  });

  it("updates with no change but that record, sending nothing; then previews with no change", async () => {
    await f.controls.clearRequests();
    const r = expectNoErrors(await f.stack.up(() => upgradeProgram()));
    expect(changes(r).sort()).toEqual(firstChanges(f.checkpoint).sort());
    expect(writes(await f.controls.requests())).toEqual([]);
    expect(
      f.stack
        .resources()
        .map((x) => `${x.name} ${String(x.outputs[ADOPTED_KEY])}`)
        .sort(),
    ).toEqual(f.checkpoint.resources.map((x) => `${x.name} ${x.name === "adopted"}`).sort());
    expect(changes(expectNoErrors(await f.stack.preview(() => upgradeProgram())))).toEqual([]);
  });

  it("destroys every resource it owns, and leaves the adopted service in the cloud", async () => {
    const adopted = f.checkpoint.resources.find((x) => x.name === "adopted")!.id;
    const r = expectNoErrors(await f.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(f.checkpoint.resources.map((x) => `delete ${x.name}`).sort());
    expect(f.stack.resources()).toEqual([]);
    expect((await f.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([adopted]);
    expect((await f.api.perform("listVpcs")).items).toEqual([]);
  });
});

describe("a stack recorded under 0.1.0, straight after the upgrade", () => {
  let f: Loaded;
  beforeEach(async () => {
    f = await load("0.1.0");
  });
  afterEach(async () => {
    await f.close();
  });

  it("keeps the adopted service through `up --replace` with deleteBeforeReplace (the old state's retainOnDelete is false)", async () => {
    const adopted = f.checkpoint.resources.find((x) => x.name === "adopted")!.id;
    await f.controls.clearRequests();
    const r = expectNoErrors(await f.stack.up(() => upgradeProgram({ deleteBeforeReplace: true }), { replace: ["adopted"] }));
    expect(r.steps.filter((s) => s.name === "adopted").map((s) => s.op)).toEqual(["delete-replaced", "replace"]);
    expect((await f.controls.requests()).filter((q) => q.method === "DELETE")).toEqual([]);
    expect((await f.api.perform("getService", { service: adopted })).status).toBe("READY");
    expect(f.stack.resource("adopted")).toMatchObject({ id: adopted, outputs: { [ADOPTED_KEY]: true } });
    expect(f.stack.pluginStderr()).toContain(`Service ${adopted} is not deleted: this run's program adopts it (adoptId)`);
  });

  it("deletes nothing a destroy cannot tell the stack made, and says what to do; after an `up`, deletes what it made", async () => {
    const ids = f.checkpoint.resources.map((x) => x.id).sort();
    const live = async (): Promise<string[]> => {
      const [services, vpcs] = await Promise.all([f.api.perform("listServices"), f.api.perform("listVpcs")]);
      return [...services.items.map((x) => x.service_id), ...vpcs.items.map((x) => x.id)];
    };
    const before = (await live()).sort();
    const refused = await f.stack.destroy();
    expect(refused.errors.length).toBeGreaterThan(0);
    for (const e of refused.errors) {
      expect(e.message).toMatch(/is not deleted: its state was written by pulumi-clouddb 0\.1\.0/);
      // A destroy's provider runs with the configuration the last `up` stored: the answer goes in the environment (tests/upgrade/ownership.test.ts runs it).
      expect(e.message).toMatch(/if this stack made it \(it is deleted\): `export CLOUDDB_OWNERSHIP='\{"\w+":\{"\w+":"made"\}\}'`/);
    }
    expect((await f.controls.requests()).filter((q) => q.method === "DELETE")).toEqual([]);
    expect((await live()).sort()).toEqual(before);
    expect(
      f.stack
        .resources()
        .map((x) => x.id)
        .sort(),
    ).toEqual(ids);

    expectNoErrors(await f.stack.up(() => upgradeProgram()));
    expectNoErrors(await f.stack.destroy());
    const adopted = f.checkpoint.resources.find((x) => x.name === "adopted")!.id;
    expect((await f.api.perform("listServices")).items.map((x) => x.service_id)).toEqual([adopted]);
  });
});

describe("a stack recorded before some optional inputs existed (0.1.0 without them)", () => {
  /** The optional inputs the program leaves unset on `minimal`, as if the release that wrote its state had not had them. */
  const absent = ["connectionPooler", "paused", "environment", "haReplicas", "vpcId"];
  let f: Loaded;
  beforeAll(async () => {
    f = await load("0.1.0", (c) => {
      // As recorded by a release that records adoption: the only difference left is the optional inputs.
      for (const r of c.resources) r.outputs[ADOPTED_KEY] = r.name === "adopted";
      const minimal = c.resources.find((r) => r.name === "minimal")!;
      for (const key of absent) {
        delete minimal.outputs[key];
        delete minimal.inputs[key];
      }
    });
  });
  afterAll(async () => {
    await f.close();
  });

  it("previews and updates with no change: an input the state does not record and the program does not set is its default", async () => {
    expect(changes(expectNoErrors(await f.stack.preview(() => upgradeProgram())))).toEqual([]);
    await f.controls.clearRequests();
    expect(changes(expectNoErrors(await f.stack.up(() => upgradeProgram())))).toEqual([]);
    expect(writes(await f.controls.requests())).toEqual([]);
  });

  it("refreshes with no change, learning the values the state did not record", async () => {
    expect(changes(expectNoErrors(await f.stack.refresh()))).toEqual([]);
    expect(f.stack.resource("minimal").outputs).toMatchObject({ connectionPooler: false, paused: false, environment: "DEV" });
    expect(changes(expectNoErrors(await f.stack.preview(() => upgradeProgram())))).toEqual([]);
  });
});
