/**
 * What the native plugin does that the dynamic host cannot, over its life with the engine
 * (the compiled plugin as a process, a fake engine recording its Log): a create cut short by
 * the engine's timeout or by Cancel is a partial failure whose secrets stay secret and which
 * records no `timeouts` (the engine's bound is the call's alone); what the framework tells the user (an adoption, a
 * delete that keeps an adopted resource, a long wait) reaches the engine's log under the
 * resource.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import { isSecret, NativePlugin, RpcError, urnOf } from "./support";

/** A service takes about 1.5 s to be ready at this scale. */
const CLOCK_SCALE = 0.2;

describe("the native plugin's operations", () => {
  let emu: RunningEmulator;
  let plugin: NativePlugin;
  let api: ClouddbClient;
  let journal: string;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: CLOCK_SCALE });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-native-"));
    plugin = await NativePlugin.start({ CLOUDDB_JOURNAL_DIR: journal, CLOUDDB_PROGRESS_MS: "300" });
    await plugin.configure({
      apiUrl: emu.baseUrl,
      apiKey: emu.pat,
      projectId: emu.projectId,
      pollInterval: "20ms",
      pollMaxInterval: "100ms",
    });
  });
  afterAll(async () => {
    await plugin.close();
    await api.close();
    await emu.close();
    fs.rmSync(journal, { recursive: true, force: true });
  });

  /** A create that fails, with its partial failure. */
  async function failedCreate(urn: string, news: Record<string, unknown>, opts: { timeout?: number }, during?: () => Promise<void>) {
    const creating = plugin.create(urn, news, opts).then(
      () => undefined,
      (e: unknown) => e,
    );
    await during?.();
    const e = await creating;
    expect(e).toBeInstanceOf(RpcError);
    return (e as RpcError).initFailure!;
  }

  it("a create the engine's timeout cuts short is a partial failure: the service kept, its password and connection string secret, no timeouts recorded", async () => {
    // An emulator whose clock stands still: the service is never ready, so the engine's timeout
    // always cuts the wait short, and it is long enough for the create's request to be sent
    // however loaded the machine (no request of a create is sent past its deadline).
    const frozen = await startEmulator({ port: 0, frozenClock: true, projectId: emu.projectId });
    const base = { apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms", pollMaxInterval: "100ms" };
    const urn = urnOf("Service", "slow");
    const { inputs } = await plugin.check(urn, { name: "slow" });
    await plugin.configure({ ...base, apiUrl: frozen.baseUrl });
    let failure: Awaited<ReturnType<typeof failedCreate>>;
    try {
      failure = await failedCreate(urn, inputs, { timeout: 3 });
    } finally {
      await plugin.configure(base);
    }
    const frozenApi = new ClouddbClient({ apiUrl: frozen.baseUrl, apiKey: frozen.pat, projectId: frozen.projectId });
    expect(failure.id).toMatch(/\w+/);
    expect(failure.reasons[0]).toMatch(/was created but is not ready/);
    expect(isSecret(failure.properties.password)).toBe(true);
    expect(isSecret(failure.properties.connectionString)).toBe(true);
    const password = (failure.properties.password as { value: string }).value;
    expect(failure.reasons.join("\n")).not.toContain(password);
    expect(failure.properties).not.toHaveProperty("timeouts");
    expect(failure.properties).not.toHaveProperty("__owner");
    try {
      expect((await frozenApi.perform("getService", { service: failure.id })).name).toBe("slow");
    } finally {
      await frozenApi.close();
      await frozen.close();
    }
  });

  it("Cancel ends a create's wait at once, as a partial failure that keeps the service; later waits of the process end at once too", async () => {
    // A process of its own: Cancel is for the rest of a plugin process's life (the engine starts another for its next run).
    // An emulator whose clock stands still: the service is never ready, so only the Cancel ends
    // the create's wait, however late it comes on a loaded machine (on a running clock the
    // service could be ready first, and the create succeed).
    const frozen = await startEmulator({ port: 0, frozenClock: true, projectId: emu.projectId });
    const frozenApi = new ClouddbClient({ apiUrl: frozen.baseUrl, apiKey: frozen.pat, projectId: frozen.projectId });
    const cancelled = await NativePlugin.start({ CLOUDDB_JOURNAL_DIR: journal });
    try {
      await cancelled.configure({ apiUrl: frozen.baseUrl, apiKey: frozen.pat, projectId: frozen.projectId, pollInterval: "20ms" });
      const urn = urnOf("Service", "cancelled");
      const { inputs } = await cancelled.check(urn, { name: "cancelled" });
      const creating = cancelled.create(urn, inputs).then(
        () => undefined,
        (e: unknown) => e,
      );
      // Once the API has the service.
      while (!(await frozenApi.perform("listServices")).items.some((s) => s.name === "cancelled"))
        await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      await cancelled.cancel();
      const e = await creating;
      expect(e).toBeInstanceOf(RpcError);
      const failure = (e as RpcError).initFailure!;
      expect(Date.now() - started).toBeLessThan(5_000); // at once: the wait would never end on its own
      expect(failure.id).toMatch(/\w+/);
      expect(failure.reasons[0]).toMatch(/Pulumi cancelled the operation \(Ctrl-C\)/);
      expect(isSecret(failure.properties.password)).toBe(true);
      expect((await frozenApi.perform("listServices")).items.map((s) => s.service_id)).toContain(failure.id);
      // Resuming it in the same process (a create after Cancel) stops at once: no wait outlives a Cancel.
      const again = await cancelled.update(urn, failure.id, failure.properties as never, inputs).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(again).toBeInstanceOf(RpcError);
      expect((again as Error).message).toMatch(
        /^Stopped while updating Service "cancelled" \w+: Pulumi cancelled the operation \(Ctrl-C\)\.$/,
      );
    } finally {
      await cancelled.close();
      await frozenApi.close();
      await frozen.close();
    }
  });

  it("tells the engine's log, under the resource, how long a create has been waiting", async () => {
    const urn = urnOf("Service", "waited");
    const { inputs } = await plugin.check(urn, { name: "waited" });
    await plugin.create(urn, inputs);
    const told = plugin.logged.filter((l) => l.urn === urn);
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told[0]).toMatchObject({
      severity: 1,
      ephemeral: false,
      message: expect.stringMatching(/^still creating Service "waited" after \d/),
    });
  });

  it("tells the engine's log, under the resource, of an adoption and of a delete that leaves the adopted service in the cloud", async () => {
    const legacy = await api.perform("createService", { body: { name: "legacy", cpu_millis: "500", memory_gbs: "2" } });
    const urn = urnOf("Service", "legacy");
    const { inputs } = await plugin.check(urn, { adoptId: legacy.service_id });
    const made = await plugin.create(urn, inputs);
    expect(made.outs.__adopted).toBe(true);
    await plugin.delete(urn, made.id, made.outs);
    const told = plugin.logged.filter((l) => l.urn === urn).map((l) => l.message);
    expect(told).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`adopts Service ${legacy.service_id} \\(adoptId\\) rather than creating one`)),
        // (This process saw the adoption: the reason is this run's program; a destroy's own process says the stack adopted it.)
        expect.stringMatching(new RegExp(`^Service ${legacy.service_id} is not deleted: this run's program adopts it`)),
      ]),
    );
    expect((await api.perform("getService", { service: legacy.service_id })).service_id).toBe(legacy.service_id);
    expect(plugin.stderr).not.toMatch(/adopts Service|is not deleted/);
  });

  it("deletes what the stack made, and refuses to guess for state without __adopted (0.1.0), as the dynamic providers do", async () => {
    const urn = urnOf("Vpc", "net");
    const { inputs } = await plugin.check(urn, { cidr: "10.3.0.0/16", regionCode: "us-east-1" });
    const made = await plugin.create(urn, inputs);
    const { __adopted: _adopted, ...unrecorded } = made.outs;
    await expect(plugin.delete(urn, made.id, unrecorded)).rejects.toThrow(
      new RegExp(
        `Vpc ${made.id} is not deleted: its state was written by pulumi-clouddb 0\\.1\\.0.*\`pulumi config set --path clouddb:ownership\\.Vpc\\.${made.id} made\``,
      ),
    );
    await plugin.delete(urn, made.id, made.outs);
    expect((await api.perform("listVpcs")).items.map((v) => v.id)).not.toContain(made.id);
  });

  it("acts on what state of 0.1.0 proves (its recorded inputs adopt it) and on the user's answer in the provider's configuration", async () => {
    const base = { apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms", pollMaxInterval: "100ms" };
    const urn = urnOf("Vpc", "old");
    const unrecorded = async (cidr: string) => {
      const { inputs } = await plugin.check(urn, { cidr, regionCode: "us-east-1" });
      const { __adopted: _adopted, ...outs } = (await plugin.create(urn, inputs)).outs;
      return outs;
    };
    const adopted = await unrecorded("10.4.0.0/16");
    await plugin.delete(urn, String(adopted.vpcId), adopted, { adoptId: adopted.vpcId, cidr: "10.4.0.0/16", regionCode: "us-east-1" });
    expect((await api.perform("getVpc", { vpc: String(adopted.vpcId) })).id).toBe(adopted.vpcId);
    expect(plugin.logged.map((l) => l.message)).toContain(
      `Vpc ${String(adopted.vpcId)} is not deleted: its state's inputs adopt it (adoptId, as pulumi-clouddb 0.1.0 recorded them), so it stays in the cloud and leaves the stack`,
    );

    const answered = await unrecorded("10.5.0.0/16");
    // A stack config object reaches the provider as its JSON text.
    await plugin.configure({ ...base, ownership: JSON.stringify({ Vpc: { [String(answered.vpcId)]: "made" } }) });
    try {
      await plugin.delete(urn, String(answered.vpcId), answered);
    } finally {
      await plugin.configure(base);
    }
    expect((await api.perform("listVpcs")).items.map((v) => v.id)).not.toContain(answered.vpcId);
  });
});
