/**
 * What the native plugin serves in place of the dynamic providers' `timeouts` and `settings`
 * inputs (issue 42 item 3): neither is an input, and a program still giving one is told what
 * to use (the engine's `customTimeouts`, an explicit provider); the engine's timeout bounds
 * each operation; state that records them (plugin 0.2.0's, the dynamic providers') plans no
 * change for their absence, refreshes and deletes, unless its `settings` name another API
 * than the provider's, which stops the diff. Through support.ts `NativePlugin.forBehaviour`
 * (the server in this process; `CLOUDDB_NATIVE_HOST=process`: the compiled plugin).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import { isSecret, NativePlugin, RpcError, secret, urnOf } from "./support";

/** Diff's `changes`: the engine's DIFF_NONE. */
const DIFF_NONE = 1;

/** How long a wait that timed out waited, in ms, as its message says (`Timed out after 2587 ms`); NaN when it says not. */
function waitedMs(message: string | undefined): number {
  return Number(/Timed out after (\d+) ms/.exec(message ?? "")?.[1] ?? NaN);
}

describe("the native plugin without the dynamic providers' timeouts and settings", () => {
  let emu: RunningEmulator;
  let plugin: NativePlugin;
  let api: ClouddbClient;
  let journal: string;
  const configOf = (e: RunningEmulator) => ({
    apiUrl: e.baseUrl,
    apiKey: e.pat,
    projectId: e.projectId,
    pollInterval: "20ms",
    pollMaxInterval: "100ms",
  });
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-native-"));
    plugin = await NativePlugin.forBehaviour({ CLOUDDB_JOURNAL_DIR: journal });
    await plugin.configure(configOf(emu));
  });
  afterAll(async () => {
    await plugin.close();
    await api.close();
    await emu.close();
    fs.rmSync(journal, { recursive: true, force: true });
  });

  /** A VPC made through the plugin: its URN, id, inputs and outputs. */
  async function vpc(name: string, cidr: string) {
    const urn = urnOf("Vpc", name);
    const { inputs, failures } = await plugin.check(urn, { name, cidr, regionCode: "us-east-1" });
    expect(failures).toEqual([]);
    const { id, outs } = await plugin.create(urn, inputs);
    return { urn, id, inputs, outs };
  }

  it("serves no timeouts or settings input or output, nor their types", async () => {
    const served = (await plugin.schema()) as {
      resources: Record<string, { inputProperties: object; properties: object }>;
      types: object;
    };
    for (const [token, r] of Object.entries(served.resources)) {
      expect([token, Object.keys(r.inputProperties)]).toEqual([token, expect.not.arrayContaining(["timeouts"])]);
      expect([token, Object.keys(r.inputProperties)]).toEqual([token, expect.not.arrayContaining(["settings"])]);
      expect([token, Object.keys(r.properties)]).toEqual([token, expect.not.arrayContaining(["timeouts", "settings"])]);
    }
    expect(Object.keys(served.types)).toEqual(expect.not.arrayContaining(["clouddb:index:Timeouts"]));
    expect(Object.keys(served.types)).toEqual(expect.not.arrayContaining(["clouddb:index:ProviderSettings"]));
  });

  it("Check tells a program still giving timeouts or settings what to use instead, never quoting the key", async () => {
    const urn = urnOf("Vpc", "old-sdk");
    const given = { name: "old-sdk", cidr: "10.9.0.0/16", regionCode: "us-east-1" };
    const timed = await plugin.check(urn, { ...given, timeouts: { create: "1h" } });
    expect(timed.failures).toEqual([
      {
        property: "timeouts",
        reason: expect.stringMatching(/^timeouts is not an input of clouddb\.Vpc .*: use the `customTimeouts` resource option/),
      },
    ]);
    const set = await plugin.check(urn, { ...given, settings: secret({ apiUrl: emu.baseUrl, apiKey: "another-key-123456789" }) });
    expect(set.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^settings is not an input of clouddb\.Vpc .*: use an explicit provider .*new clouddb\.Provider/),
      },
    ]);
    expect(JSON.stringify(set.failures)).not.toContain("another-key-123456789");
  });

  it("state of plugin 0.2.0 (timeouts and settings recorded) plans no change for their absence, refreshes and deletes", async () => {
    const { urn, id, inputs, outs } = await vpc("upgraded", "10.10.0.0/16");
    // What 0.2.0 recorded for a program that set both (its settings those of the provider now serving it).
    const old020 = { timeouts: { create: "20m", update: "15m", delete: "10m" }, settings: secret(configOf(emu)) };
    const recorded = { ...outs, ...old020 };
    const recordedInputs = { ...inputs, ...old020 };
    const d = await plugin.diff(urn, id, recorded, inputs);
    expect(d).toEqual({ changes: DIFF_NONE, replaces: [], diffs: [], detailed: {} });
    const refreshed = await plugin.read(urn, id, recorded, recordedInputs);
    expect(refreshed.id).toBe(id);
    expect(refreshed.outs).toMatchObject({ vpcId: id, name: "upgraded", cidr: "10.10.0.0/16" });
    expect(isSecret(refreshed.outs.settings)).toBe(true);
    await plugin.delete(urn, id, refreshed.outs, refreshed.inputs);
    await expect(api.perform("getVpc", { vpc: id })).rejects.toThrow(/not found|404/i);
  });

  it("state whose settings name another API or project stops the diff, naming each and the explicit provider to give, never the key", async () => {
    const { urn, id, inputs, outs } = await vpc("elsewhere", "10.11.0.0/16");
    // Moved from the dynamic providers (`__provider`), whose program gave the resource its own API and key.
    const other = { apiUrl: "https://other.example/public/api/v1", apiKey: "other-key-123456789", projectId: "otherproj1" };
    const dynamicState = { ...outs, __provider: "exports.handler = ...", settings: other };
    const diffing = plugin.diff(urn, id, dynamicState, inputs);
    await expect(diffing).rejects.toBeInstanceOf(RpcError);
    const message = ((await diffing.catch((e: unknown) => e)) as Error).message;
    expect(message).toContain('settings.apiUrl "https://other.example/public/api/v1"');
    expect(message).toContain("settings.apiKey (a key other than the provider's)");
    expect(message).toContain('settings.projectId "otherproj1"');
    expect(message).toContain("new clouddb.Provider(name, { apiUrl, apiKey, projectId })");
    expect(message).not.toContain("other-key-123456789");
    // One field set, the provider's own: nothing stops it.
    const same = await plugin.diff(urn, id, { ...outs, settings: { projectId: emu.projectId } }, inputs);
    expect(same.changes).toBe(DIFF_NONE);
    await plugin.delete(urn, id, outs);
  });

  it("the engine's customTimeouts bound a create; timeouts that state records do not", async () => {
    // An emulator whose clock stands still: the service is never ready, so only a timeout ends the create's wait.
    const frozen = await startEmulator({ port: 0, frozenClock: true, projectId: emu.projectId });
    const urn = urnOf("Service", "slow");
    try {
      await plugin.configure({ ...configOf(frozen), createTimeout: "1h" });
      const { inputs } = await plugin.check(urn, { name: "slow" });
      const started = Date.now();
      const failed = await plugin.create(urn, inputs, { timeout: 3 }).then(
        () => undefined,
        (e: unknown) => e as RpcError,
      );
      expect(failed).toBeInstanceOf(RpcError);
      expect(failed?.initFailure?.reasons[0]).toMatch(/was created but is not ready: Timed out after \d+ ms/);
      // Within the engine's 3 s (less what sending the create took), not `clouddb:createTimeout`'s hour.
      expect(waitedMs(failed?.initFailure?.reasons[0])).toBeLessThanOrEqual(3_000);
      expect(Date.now() - started).toBeLessThan(60_000);
      // State 0.2.0 wrote with a short `timeouts.delete` does not cut a delete shorter than the engine's bound.
      const props = { ...(failed?.initFailure?.properties ?? {}), timeouts: { delete: "1s" } };
      const deleting = await plugin.delete(urn, failed?.initFailure?.id ?? "", props, undefined, 3).then(
        () => undefined,
        (e: unknown) => e as RpcError,
      );
      expect(deleting).toBeInstanceOf(RpcError);
      expect(waitedMs(deleting?.message)).toBeGreaterThan(1_500);
      expect(waitedMs(deleting?.message)).toBeLessThanOrEqual(3_000);
    } finally {
      await plugin.configure(configOf(emu));
      await frozen.close();
    }
  });
});
