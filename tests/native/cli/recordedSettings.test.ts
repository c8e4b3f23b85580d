/**
 * The way out of `CLOUDDB_SETTINGS_NOT_SERVED`, run as its message says, under the real CLI. A
 * stack made with the dynamic providers holds a VPC in another API and project than the
 * stack's (its `settings` input); moved to the native plugin, which takes no per-resource
 * `settings`, the program without them stops before anything is sent, naming what differs
 * (never the key) and the explicit provider to give. Given that provider, as printed, the
 * move plans only the provider's creation, `up` sends nothing, and refresh and destroy act
 * where each VPC lives.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { REPO_ROOT } from "../../../harness";
import { ClouddbClient } from "../../../provider/client";
import { changes, MOVE, nativeProgram } from "./move";
import { CliStack, cliWorkspace, describeWithCli, withNode24, type Ran } from "./support";

/** The program's two VPCs; `away` is in the second API, told by `settings` or by `options`. */
function vpcs(away: string, options = ""): string {
  return (
    'new clouddb.Vpc("home", { name: "home-net", cidr: "10.30.0.0/16", regionCode: "us-east-1" });\n' +
    `new clouddb.Vpc("away", { name: "away-net", cidr: "10.31.0.0/16", regionCode: "us-east-1"${away} }${options});\n`
  );
}

/** The stack config the second API's settings are read from (`away:*`), as a program reads its own. */
const AWAY_CONFIG = 'const away = new pulumi.Config("away");\n';
/** The settings of the second API, from the stack's config. */
const AWAY_SETTINGS = '{ apiUrl: away.require("apiUrl"), apiKey: away.requireSecret("apiKey"), projectId: away.require("projectId") }';

/** The dynamic providers' program: `away` carries its own `settings`. */
const DYNAMIC_PROGRAM =
  'import * as pulumi from "@pulumi/pulumi";\nimport * as clouddb from "pulumi-clouddb";\n' +
  AWAY_CONFIG +
  vpcs(`, settings: ${AWAY_SETTINGS}`);

/** The native program as first written after the upgrade: `settings` dropped (the native resources take none). */
const NATIVE_WITHOUT_PROVIDER = 'import * as clouddb from "@clouddb/pulumi-clouddb";\n' + vpcs("");

/** The native program after the message's advice: an explicit provider with those settings, as `away`'s `provider`. */
const NATIVE_WITH_PROVIDER =
  'import * as pulumi from "@pulumi/pulumi";\nimport * as clouddb from "@clouddb/pulumi-clouddb";\n' +
  AWAY_CONFIG +
  `const awayApi = new clouddb.Provider("away-api", { ...${AWAY_SETTINGS}, pollInterval: "20ms", pollMaxInterval: "200ms" });\n` +
  vpcs("", ", { provider: awayApi }");

/** Everything the CLI printed, its wrapped lines joined back. */
function printed(r: Ran): string {
  return `${r.stdout}\n${r.stderr}`.replace(/\n\s+/g, " ");
}

describeWithCli("a resource whose state records another API's settings, under the native plugin", () => {
  let home: RunningEmulator | undefined;
  let away: RunningEmulator | undefined;
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await home?.close();
    await away?.close();
    [home, away] = [undefined, undefined];
  });

  it("stops the program without them, naming the explicit provider; given it as printed, the stack moves, refreshes and destroys where each VPC lives", async () => {
    home = await startEmulator({ port: 0, clockScale: 0.02 });
    away = await startEmulator({ port: 0, clockScale: 0.02, pat: "the-away-key-0001" });
    const apis = [home, away].map((e) => {
      const api = new ClouddbClient({ apiUrl: e.baseUrl, apiKey: e.pat, projectId: e.projectId });
      closers.push(() => api.close());
      return { api, control: new EmulatorControl(e.url, e.pat) };
    });
    expect([away.pat, away.projectId]).not.toEqual([home.pat, home.projectId]);
    const vpcsIn = async (i: number) => (await apis[i].api.perform("listVpcs")).items.map((v) => `${v.name} ${v.id}`).sort();
    const writes = async () => (await Promise.all(apis.map((a) => a.control.requests()))).flat().filter((q) => q.method !== "GET");

    // The stack, made by the dynamic providers: `home` in the stack's API, `away` in its own.
    const ws = await cliWorkspace("recorded-settings");
    closers.push(() => fs.rmSync(ws.work, { recursive: true, force: true }));
    const dynamicDir = path.join(ws.work, "dynamic");
    fs.mkdirSync(dynamicDir);
    fs.writeFileSync(path.join(dynamicDir, "Pulumi.yaml"), "name: upgrade\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    fs.writeFileSync(path.join(dynamicDir, "index.ts"), DYNAMIC_PROGRAM);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dynamicDir, "node_modules"));
    const dynamic = new CliStack(dynamicDir, ws.env);
    await dynamic.pulumi("stack", "init", "dev");
    const config: Array<[string, string, boolean]> = [
      ["clouddb:apiUrl", home.baseUrl, false],
      ["clouddb:apiKey", home.pat, true],
      ["clouddb:projectId", home.projectId, false],
      ["clouddb:pollInterval", "20ms", false],
      ["clouddb:pollMaxInterval", "200ms", false],
      ["away:apiUrl", away.baseUrl, false],
      ["away:apiKey", away.pat, true],
      ["away:projectId", away.projectId, false],
    ];
    for (const [k, v, secret] of config) await dynamic.pulumi("config", "set", ...(secret ? ["--secret"] : []), k, v);
    await dynamic.pulumi("up", "--yes", "--skip-preview");
    const [homeVpcs, awayVpcs] = [await vpcsIn(0), await vpcsIn(1)];
    expect(homeVpcs).toEqual([expect.stringMatching(/^home-net /)]);
    expect(awayVpcs).toEqual([expect.stringMatching(/^away-net /)]);

    // The native program without `settings`: stopped before anything is sent, the way out named, the key never shown.
    const nativeEnv = withNode24(ws.env);
    const native = new CliStack(await nativeProgram(ws.work, nativeEnv, { edit: () => NATIVE_WITHOUT_PROVIDER }), nativeEnv);
    fs.copyFileSync(path.join(dynamicDir, "Pulumi.dev.yaml"), path.join(native.dir, "Pulumi.dev.yaml"));
    await native.pulumi("stack", "select", "dev");
    await Promise.all(apis.map((a) => a.control.clearRequests()));
    for (const command of [["preview"], ["up", "--yes", "--skip-preview"]]) {
      const stopped = await native.pulumiMayFail(...command);
      expect([command.join(" "), stopped.code]).not.toEqual([command.join(" "), 0]);
      const text = printed(stopped);
      const awayId = awayVpcs[0].split(" ")[1];
      expect(text).toContain(`clouddb.Vpc ${awayId}: its state records its own settings.apiUrl ${JSON.stringify(away.baseUrl)}`);
      expect(text).toContain(`settings.projectId ${JSON.stringify(away.projectId)}`);
      expect(text).toContain("settings.apiKey (a key other than the provider's)");
      expect(text).toContain("`new clouddb.Provider(name, { apiUrl, apiKey, projectId })`, passed as its `provider` resource option");
      expect(text).not.toContain(away.pat);
      expect(text).not.toContain(home.pat);
    }
    expect(await writes()).toEqual([]);
    // `home` may have moved to the native type meanwhile (its step needs nothing of `away`'s); `away` has not.
    const awayNow = (await native.exported()).resources.filter((r) => r.urn.endsWith("::away"));
    expect(awayNow.map((r) => r.type)).toEqual(["pulumi-nodejs:dynamic/clouddb:Vpc"]);

    // The message's way out, as written: an explicit provider with those settings.
    fs.writeFileSync(path.join(native.dir, "index.ts"), NATIVE_WITH_PROVIDER);
    expect((await changes(native)).filter((s) => !MOVE.test(s))).toEqual(["create pulumi:providers:clouddb away-api"]);
    await native.pulumi("up", "--yes", "--skip-preview");
    expect(await writes()).toEqual([]);
    const state = await native.exported();
    const ours = state.resources.filter((r) => r.type.startsWith("clouddb:index:"));
    expect(ours.map((r) => `${r.urn.split("::").pop()} ${r.id}`).sort()).toEqual(
      [`away ${awayVpcs[0].split(" ")[1]}`, `home ${homeVpcs[0].split(" ")[1]}`].sort(),
    );
    expect(state.resources.filter((r) => r.type.includes("dynamic"))).toEqual([]);
    expect(state.text).not.toContain(away.pat);
    expect(state.text).not.toContain(home.pat);
    expect(await changes(native)).toEqual([]);

    // Refresh reads each where it lives (nothing drifted, nothing written); destroy deletes each there.
    await native.pulumi("refresh", "--yes", "--skip-preview");
    expect(await changes(native)).toEqual([]);
    expect([await vpcsIn(0), await vpcsIn(1)]).toEqual([homeVpcs, awayVpcs]);
    expect(await writes()).toEqual([]);
    await native.pulumi("destroy", "--yes", "--skip-preview");
    expect([await vpcsIn(0), await vpcsIn(1)]).toEqual([[], []]);
  });
});
