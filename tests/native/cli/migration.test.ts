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
import { SNAPSHOT_FILE_NAME } from "../../../emulator/persistence/snapshot-file";
import { REPO_ROOT } from "../../../harness";
import type { Checkpoint } from "../../../harness/checkpoint";
import { ClouddbClient } from "../../../provider/client";
import { ADOPTED_KEY } from "../../../provider/framework/adoption";
import { API_URL_PLACEHOLDER, FIXTURE_PROJECT_ID, FIXTURE_SECRET_KEYS, fixtureDir } from "../../upgrade/fixtures";
import { deploymentOf } from "./deployment";
import { builtNodeSdk, CliStack, cliWorkspace, describeWithCli, ok, withNode24 } from "./support";

/** The native program in `work/native`, its dependencies installed (the built SDK, the newest @pulumi/pulumi). */
async function nativeProgram(work: string, env: NodeJS.ProcessEnv): Promise<string> {
  const dir = path.join(work, "native");
  fs.cpSync(path.join(__dirname, "fixtures", "upgrade-native"), dir, { recursive: true });
  const pkgFile = path.join(dir, "package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { dependencies: Record<string, string> };
  pkg.dependencies["@clouddb/pulumi-clouddb"] = `file:${await builtNodeSdk(env)}`;
  pkg.dependencies["@pulumi/pulumi"] = "latest";
  fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  await ok("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env });
  return dir;
}

/** The steps of `pulumi preview --json` that are not `same`, as `op type name`. */
async function changes(stack: CliStack): Promise<string[]> {
  const r = await stack.pulumi("preview", "--json");
  const steps = (JSON.parse(r.stdout) as { steps?: Array<{ op: string; urn: string }> }).steps ?? [];
  return steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").slice(-2).join(" ")}`);
}

/** The old default provider's removal and the new one's creation, if the CLI plans them as steps: the move itself. */
const MOVE = /^(delete pulumi:providers:pulumi-nodejs default|create pulumi:providers:clouddb default.*)$/;

describeWithCli("a stack made with the dynamic providers, moved to the native plugin", () => {
  let emu: RunningEmulator;
  let api: ClouddbClient;
  let control: EmulatorControl;
  let native: CliStack;
  let nativeEnv: NodeJS.ProcessEnv;
  afterEach(async () => {
    native?.close();
    await api?.close();
    await emu?.close();
  });

  /** Runs the native program on the stack in the workspace: no replacement, only `expected` changes; then none; then a destroy. */
  async function move(work: string, expected: string[], adoptedId: string): Promise<void> {
    native = new CliStack(await nativeProgram(work, nativeEnv), nativeEnv);
    await native.pulumi("stack", "select", "fixture");
    await control.clearRequests();
    const planned = await changes(native);
    expect(planned.filter((s) => !MOVE.test(s)).sort()).toEqual(expected.sort());
    await native.pulumi("up", "--yes", "--skip-preview");
    expect((await control.requests()).filter((q) => q.method !== "GET")).toEqual([]);
    const state = await native.exported();
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
    expect((await changes(native)).filter((s) => !MOVE.test(s))).toEqual([]);
    await native.pulumi("refresh", "--yes", "--skip-preview");
    expect((await changes(native)).filter((s) => !MOVE.test(s))).toEqual([]);
    await native.pulumi("destroy", "--yes", "--skip-preview");
    expect((await api.perform("listServices")).items.map((s) => s.service_id)).toEqual([adoptedId]);
    expect((await api.perform("listVpcs")).items).toEqual([]);
  }

  it("made by this version through the CLI: the move replaces and changes nothing", async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    control = new EmulatorControl(emu.url, emu.pat);
    const legacy = await api.perform("createService", {
      body: { name: "upgrade-legacy", cpu_millis: "500", memory_gbs: "2", environment_tag: "PROD" },
    });
    await api.waitForService(legacy.service_id, { until: ["READY"], timeoutMs: 60_000 });
    const ws = await cliWorkspace("migration-now");
    nativeEnv = withNode24(ws.env);
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
    fs.mkdirSync(path.join(ws.work, "native"));
    fs.copyFileSync(path.join(dynamicDir, "Pulumi.fixture.yaml"), path.join(ws.work, "native", "Pulumi.fixture.yaml"));
    await move(ws.work, [], legacy.service_id);
  });

  it("recorded under release 0.1.0 (stack import of its fixture): the move replaces nothing, and updates each resource only to record whether it was adopted", async () => {
    const checkpoint = JSON.parse(fs.readFileSync(path.join(fixtureDir("0.1.0"), "checkpoint.json"), "utf8")) as Checkpoint;
    const ws = await cliWorkspace("migration-0.1.0");
    nativeEnv = withNode24(ws.env);
    fs.mkdirSync(path.join(ws.work, "emulator"));
    fs.copyFileSync(path.join(fixtureDir("0.1.0"), "emulator", SNAPSHOT_FILE_NAME), path.join(ws.work, "emulator", SNAPSHOT_FILE_NAME));
    emu = await startEmulator({ port: 0, clockScale: 0.02, dataDir: path.join(ws.work, "emulator"), projectId: FIXTURE_PROJECT_ID });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    control = new EmulatorControl(emu.url, emu.pat);
    // The stack, its config, then its state: the fixture's checkpoint as a deployment.
    const importer = new CliStack(fs.mkdtempSync(path.join(ws.work, "import-")), ws.env);
    fs.writeFileSync(path.join(importer.dir, "Pulumi.yaml"), "name: upgrade\nruntime: yaml\n");
    await importer.pulumi("stack", "init", "fixture");
    for (const [k, v] of Object.entries(checkpoint.providerConfig!.values)) {
      const value = v === API_URL_PLACEHOLDER ? emu.baseUrl : v;
      await importer.pulumi("config", "set", ...(checkpoint.providerConfig!.secretKeys.includes(k) ? ["--secret"] : []), k, value);
    }
    const exported = JSON.parse((await importer.pulumi("stack", "export")).stdout) as {
      version: number;
      deployment: Record<string, unknown>;
    };
    fs.writeFileSync(path.join(ws.work, "deployment.json"), JSON.stringify(deploymentOf(checkpoint, exported)));
    await importer.pulumi("stack", "import", "--file", path.join(ws.work, "deployment.json"));
    fs.mkdirSync(path.join(ws.work, "native"));
    fs.copyFileSync(path.join(importer.dir, "Pulumi.fixture.yaml"), path.join(ws.work, "native", "Pulumi.fixture.yaml"));
    const adopted = checkpoint.resources.find((r) => r.name === "adopted")!.id;
    await move(
      ws.work,
      checkpoint.resources.map((r) => `update clouddb:index:${r.type.split(":").pop()} ${r.name}`),
      adopted,
    );
  });
});
