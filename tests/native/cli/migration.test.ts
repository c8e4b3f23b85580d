/**
 * Stacks made with the dynamic providers move to the native plugin through the schema's
 * aliases (`clouddb:index:<Kind>` aliases `pulumi-nodejs:dynamic/clouddb:<Kind>`), under the
 * real CLI: the program of the upgrade fixtures (tests/upgrade/program.ts) rewritten against
 * the native TypeScript SDK (fixtures/upgrade-native) runs on a stack that the dynamic
 * providers made (by the current version, through the CLI) or recorded (release 0.1.0's
 * fixture, `pulumi stack import`ed). `pulumi up` replaces nothing and changes nothing but
 * the move (and, for 0.1.0's state, which does not say whether the stack adopted each
 * resource, an update of each that records it and sends nothing: what the framework does
 * for any upgrade from 0.1.0); then nothing is left to change, and a destroy deletes what
 * the stack made and leaves the adopted service.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { REPO_ROOT } from "../../../harness";
import { ClouddbClient } from "../../../provider/client";
import { ADOPTED_KEY } from "../../../provider/framework/adoption";
import { FIXTURE_SECRET_KEYS } from "../../upgrade/fixtures";
import { changes, importedFixture, MOVE, nativeProgram, type ImportedFixture } from "./move";
import { CliStack, cliWorkspace, describeWithCli, withNode24 } from "./support";

describeWithCli("a stack made with the dynamic providers, moved to the native plugin", () => {
  let emu: RunningEmulator | undefined;
  let api: ClouddbClient | undefined;
  let native: CliStack | undefined;
  let fixture: ImportedFixture | undefined;
  afterEach(async () => {
    native?.close();
    await api?.close();
    await emu?.close();
    await fixture?.close();
    [native, api, emu, fixture] = [undefined, undefined, undefined, undefined];
  });

  /** Runs the native program `stack` on the stack: no replacement, only `expected` changes; then none; then a destroy. */
  async function move(
    stack: CliStack,
    on: { api: ClouddbClient; control: EmulatorControl },
    expected: string[],
    adoptedId: string,
  ): Promise<void> {
    await on.control.clearRequests();
    const planned = await changes(stack);
    expect(planned.filter((s) => !MOVE.test(s)).sort()).toEqual(expected.sort());
    await stack.pulumi("up", "--yes", "--skip-preview");
    expect((await on.control.requests()).filter((q) => q.method !== "GET")).toEqual([]);
    const state = await stack.exported();
    const ours = state.resources.filter((r) => r.type.startsWith("clouddb:index:"));
    expect(ours.length).toBe(9);
    expect(state.resources.filter((r) => r.type.includes("dynamic"))).toEqual([]);
    expect(ours.map((r) => `${r.urn.split("::").pop()} ${String(r.outputs?.[ADOPTED_KEY])}`).sort()).toEqual([
      "adopted true",
      "db false",
      "fork false",
      "minimal false",
      "net false",
      "paused false",
      "peer false",
      "plain-reads false",
      "reads false",
    ]);
    expect((await changes(stack)).filter((s) => !MOVE.test(s))).toEqual([]);
    await stack.pulumi("refresh", "--yes", "--skip-preview");
    expect((await changes(stack)).filter((s) => !MOVE.test(s))).toEqual([]);
    await stack.pulumi("destroy", "--yes", "--skip-preview");
    expect((await on.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([adoptedId]);
    expect((await on.api.perform("listVpcs")).items).toEqual([]);
  }

  it("made by this version through the CLI: the move replaces and changes nothing", async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    const control = new EmulatorControl(emu.url, emu.pat);
    const legacy = await api.perform("createService", {
      body: { name: "upgrade-legacy", cpu_millis: "500", memory_gbs: "2", environment_tag: "PROD" },
    });
    await api.waitForService(legacy.service_id, { until: ["READY"], timeoutMs: 60_000 });
    const ws = await cliWorkspace("migration-now");
    const nativeEnv = withNode24(ws.env);
    // The upgrade fixtures' program on the dynamic providers, with this repository's package and @pulumi/pulumi.
    const dynamicDir = path.join(ws.work, "dynamic");
    fs.mkdirSync(dynamicDir);
    fs.writeFileSync(path.join(dynamicDir, "Pulumi.yaml"), "name: upgrade\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    fs.writeFileSync(
      path.join(dynamicDir, "index.ts"),
      `import { upgradeProgram } from ${JSON.stringify(path.join(REPO_ROOT, "tests", "upgrade", "program"))};\nexport = upgradeProgram();\n`,
    );
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dynamicDir, "node_modules"));
    const dynamic = new CliStack(dynamicDir, ws.env);
    await dynamic.pulumi("stack", "init", "fixture");
    const config: Record<string, string> = {
      "clouddb:apiUrl": emu.baseUrl,
      "clouddb:apiKey": emu.pat,
      "clouddb:projectId": emu.projectId,
      "clouddb:pollInterval": "20ms",
      "clouddb:pollMaxInterval": "200ms",
      "upgrade:adoptedId": legacy.service_id,
      "upgrade:dbPassword": "upgrade-now-password-1",
    };
    for (const [k, v] of Object.entries(config))
      await dynamic.pulumi("config", "set", ...((FIXTURE_SECRET_KEYS as readonly string[]).includes(k) ? ["--secret"] : []), k, v);
    await dynamic.pulumi("up", "--yes", "--skip-preview");
    expect((await dynamic.exported()).resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/clouddb:")).length).toBe(9);
    native = new CliStack(await nativeProgram(ws.work, nativeEnv), nativeEnv);
    fs.copyFileSync(path.join(dynamicDir, "Pulumi.fixture.yaml"), path.join(native.dir, "Pulumi.fixture.yaml"));
    await native.pulumi("stack", "select", "fixture");
    await move(native, { api, control }, [], legacy.service_id);
  });

  it("recorded under release 0.1.0 (stack import of its fixture): the move replaces nothing, and updates each resource only to record whether it was adopted", async () => {
    fixture = await importedFixture("migration-0.1.0");
    const adopted = fixture.checkpoint.resources.find((r) => r.name === "adopted")!.id;
    await move(
      await fixture.program(),
      fixture,
      fixture.checkpoint.resources.map((r) => `update clouddb:index:${r.type.split(":").pop()} ${r.name}`),
      adopted,
    );
  });
});
