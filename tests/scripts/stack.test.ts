/**
 * `npm run up` and friends (scripts/stack.js) as a newcomer meets them: a `pulumi` on PATH
 * is used first (the `pulumi` npm package's launcher is skipped); without one, the CLI
 * built from its Go modules (`npm run pulumi:build`), built once with the `go` on PATH
 * when it is not yet, saying so; with neither, a message says what to install. A fake CLI
 * records what it is asked to do, and a fake `go` "builds" it.
 */
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../harness";
import { alive, gone, Sandbox } from "./support/sandbox";

const CLI_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "tools", "pulumi", "versions.json"), "utf8")) as { cli: { version: string } }
).cli.version;
const example = (name: string): string => path.join(REPO_ROOT, "examples", name);

describe("npm run up with a pulumi on PATH", () => {
  const box = new Sandbox();
  afterAll(() => box.cleanup());

  it("uses it, though the npm package's launcher comes first on PATH, and deploys the quickstart to a fresh emulator", async () => {
    // `npm run` puts a project's node_modules/.bin (which may hold the `pulumi` npm launcher) first on PATH.
    const r = await box.run(["up"], { pathDirs: [box.npmLauncherDir, box.fakeCliDir, box.toolsDir] });
    expect(r.stderr).toMatch(/Started the emulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.code).toBe(0);

    const emu = box.emulator()!;
    expect(alive(emu.pid)).toBe(true);
    const info = await fetch(`${emu.CLOUDDB_API_URL}/auth/info`, { headers: { authorization: `Bearer ${emu.CLOUDDB_API_KEY}` } });
    expect(info.status).toBe(200);

    const calls = box.calls();
    expect(calls.map((c) => c.args)).toEqual([
      "stack select local",
      "stack init local",
      `config set clouddb:apiUrl ${emu.CLOUDDB_API_URL}`,
      "config set clouddb:projectId quickstart",
      "config set --secret clouddb:apiKey",
      "up --yes",
    ]);
    for (const c of calls) {
      expect(c.cwd).toBe(example("quickstart"));
      expect(c.backend).toBe(`file://${path.join(box.work, "state")}`);
      expect(c.passphrase).toBe("clouddb-local");
      // A CLI of the user's own runs with the user's PATH.
      expect(c.pathHead).toBe(box.npmLauncherDir);
    }
    // The key reaches the CLI on standard input, never as an argument.
    expect(calls[4].stdin).toBe(emu.CLOUDDB_API_KEY);
    expect(calls.map((c) => c.args).join(" ")).not.toContain(emu.CLOUDDB_API_KEY);
  });

  it("runs a named example with extra arguments on the running emulator", async () => {
    const before = box.calls().length;
    const r = await box.run(["preview", "vpc-peering", "--diff"], { pathDirs: [box.fakeCliDir, box.toolsDir] });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("Started the emulator");
    const calls = box.calls().slice(before);
    expect(calls.map((c) => c.args)).toEqual([
      "stack select local",
      `config set clouddb:apiUrl ${box.emulator()!.CLOUDDB_API_URL}`,
      "config set clouddb:projectId quickstart",
      "config set --secret clouddb:apiKey",
      "preview --diff",
    ]);
    expect(calls.every((c) => c.cwd === example("vpc-peering"))).toBe(true);
  });

  it("passes any command to the CLI with `npm run pulumi`, honouring PULUMI_CONFIG_PASSPHRASE", async () => {
    const before = box.calls().length;
    const r = await box.run(["pulumi", "stack", "output", "password", "--show-secrets"], {
      pathDirs: [box.fakeCliDir, box.toolsDir],
      env: { PULUMI_CONFIG_PASSPHRASE: "my-own" },
    });
    expect(r.code).toBe(0);
    const last = box.calls().slice(before).pop()!;
    expect(last).toMatchObject({ args: "stack output password --show-secrets", cwd: example("quickstart"), passphrase: "my-own" });
  });

  it("prints the emulator's variables as shell exports, then stops it", async () => {
    const emu = box.emulator()!;
    const env = await box.run(["emulator:env"], { pathDirs: [box.toolsDir] });
    expect(env.code).toBe(0);
    expect(env.stdout).toBe(
      `export CLOUDDB_API_URL='${emu.CLOUDDB_API_URL}'\nexport CLOUDDB_API_KEY='${emu.CLOUDDB_API_KEY}'\nexport CLOUDDB_PROJECT_ID='quickstart'\n`,
    );
    const stop = await box.run(["emulator:stop"], { pathDirs: [box.toolsDir] });
    expect(stop.stderr).toContain(`Stopped the emulator (pid ${emu.pid}).`);
    expect(await gone(emu.pid, 5_000)).toBe(true);
    expect(box.emulator()).toBeUndefined();
  });
});

describe("npm run up without a pulumi on PATH", () => {
  const box = new Sandbox();
  afterAll(() => box.cleanup());
  /** The bin folder of the tools built in the sandbox. */
  const toolsBin = (): string =>
    path.join(
      box.pulumiTools,
      box.toolFolders().find((f) => /^[0-9a-f]{12}$/.test(f))!,
      "bin",
    );

  it("says what to install when neither pulumi nor go is on PATH, and starts nothing", async () => {
    const r = await box.run(["up"], { pathDirs: [box.npmLauncherDir, box.toolsDir] });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("The Pulumi CLI is not on PATH, and neither is `go` to build it.");
    expect(r.stderr).toContain("Install it (https://www.pulumi.com/docs/install/)");
    expect(r.stderr).toContain("curl -fsSL https://get.pulumi.com | sh");
    expect(r.stderr).toContain("or install Go 1.26 or later (https://go.dev/dl/)");
    expect(r.stderr).toContain("Then run `npm run up` again");
    expect(r.stderr).not.toContain("fetch failed");
    expect(box.emulator()).toBeUndefined();
    expect(box.calls()).toEqual([]);
  });

  it("says why and what to install when the build fails, and starts nothing", async () => {
    const r = await box.run(["up"], { pathDirs: [box.fakeGoDir, box.toolsDir], env: { FAKE_GO_FAIL: "1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`building Pulumi CLI ${CLI_VERSION} and its language hosts from their Go modules once`);
    expect(r.stderr).toContain("Could not build the Pulumi CLI from its Go modules: `go build -trimpath");
    expect(r.stderr).toContain("403 Forbidden");
    expect(r.stderr).toContain("Install it (https://www.pulumi.com/docs/install/)");
    expect(box.emulator()).toBeUndefined();
    expect(box.calls()).toEqual([]);
  });

  it("builds the CLI once with the go on PATH, saying so, and runs it with its tools first on PATH", async () => {
    const first = await box.run(["preview"], { pathDirs: [box.fakeGoDir, box.toolsDir] });
    expect(first.stderr).toContain(`building Pulumi CLI ${CLI_VERSION} and its language hosts from their Go modules once`);
    expect(first.stderr).toContain(`building the Pulumi CLI ${CLI_VERSION} from its Go module (about`);
    expect(first.stderr).toContain(`Built the Pulumi tools in`);
    expect(first.code).toBe(0);
    // The failed build's folder is gone; the built one is named by its key.
    expect(box.toolFolders()).toEqual([path.basename(path.dirname(toolsBin()))]);
    const builds = box.goCalls().filter((c) => c.startsWith("build "));
    expect(builds.map((c) => c.split(" ").pop())).toEqual([
      "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
      "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi", // the failed build's
      "./codegen-host",
      "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs",
      "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python",
      "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go",
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    ]);
    expect(builds[1]).toContain(`-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${CLI_VERSION}`);
    for (const tool of ["pulumi-language-python-exec", "pulumi-resource-pulumi-nodejs"]) {
      expect(fs.statSync(path.join(toolsBin(), tool)).mode & 0o111).not.toBe(0);
    }
    const calls = box.calls();
    expect(calls.map((c) => c.args)).toEqual([
      "stack select local",
      "stack init local",
      `config set clouddb:apiUrl ${box.emulator()!.CLOUDDB_API_URL}`,
      "config set clouddb:projectId quickstart",
      "config set --secret clouddb:apiKey",
      "preview",
    ]);
    // The language hosts and the dynamic provider's launcher are found on PATH.
    expect(calls.every((c) => c.pathHead === toolsBin())).toBe(true);

    const second = await box.run(["preview"], { pathDirs: [box.toolsDir] });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain("building");
    expect(box.calls().pop()).toMatchObject({ args: "preview", pathHead: toolsBin() });
  });

  it("builds with `npm run pulumi:build` once, printing the bin folder, and generates SDKs from the codegen folder", async () => {
    const gosBefore = box.goCalls().length;
    const build = await box.runScript("pulumi-tools.js", ["build"], { pathDirs: [box.fakeGoDir, box.toolsDir] });
    expect(build.code).toBe(0);
    expect(build.stdout).toBe(`${toolsBin()}\n`);
    // `npm run up` built the tools it runs; pulumi:build adds only the Java host, linked into the same bin/, and then nothing.
    expect(box.goCalls().length - gosBefore).toBeLessThanOrEqual(2);
    expect(fs.existsSync(path.join(toolsBin(), "pulumi-language-java"))).toBe(true);
    const gosBuilt = box.goCalls().length;
    const again = await box.runScript("pulumi-tools.js", ["build"], { pathDirs: [box.fakeGoDir, box.toolsDir] });
    expect(again.code).toBe(0);
    expect(box.goCalls().length).toBe(gosBuilt);

    const gen = await box.runScript("pulumi-tools.js", ["gen-sdk", "schema.json", "--language", "python", "--out", "sdk"], {
      pathDirs: [box.toolsDir],
    });
    expect(gen.code).toBe(0);
    const codegen = path.join(path.dirname(toolsBin()), "codegen");
    expect(box.calls().pop()).toMatchObject({ args: "package gen-sdk schema.json --language python --out sdk", pathHead: codegen });
    for (const lang of ["nodejs", "python", "go"]) {
      expect(fs.statSync(path.join(codegen, `pulumi-language-${lang}`)).ino).toBe(
        fs.statSync(path.join(codegen, "pulumi-language-nodejs")).ino,
      );
    }
  });

  it("builds again when a tool of the built folder is missing", async () => {
    const key = path.basename(path.dirname(toolsBin()));
    fs.rmSync(path.join(toolsBin(), "pulumi-language-yaml"));
    const gosBefore = box.goCalls().length;
    const build = await box.runScript("pulumi-tools.js", ["build"], { pathDirs: [box.fakeGoDir, box.toolsDir] });
    expect(build.code).toBe(0);
    expect(build.stderr).toContain("building pulumi-language-yaml");
    expect(box.goCalls().length).toBeGreaterThan(gosBefore);
    expect(box.toolFolders().filter((f) => !f.startsWith("java-"))).toEqual([key]);
    expect(fs.existsSync(path.join(toolsBin(), "pulumi-language-yaml"))).toBe(true);
  });

  it("rejects an unknown command with the usage and the examples", async () => {
    const r = await box.run(["deploy"], { pathDirs: [box.toolsDir] });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("usage: node scripts/stack.js up|preview|refresh|destroy|pulumi|emulator:env|emulator:stop");
    expect(r.stderr).toContain("adopt, component, gitops, lookups, production, quickstart, staging-fork, vpc-peering");
  });
});

describe("npm run up with an example it does not know", () => {
  const box = new Sandbox();
  afterAll(() => box.cleanup());

  it("rejects an example it does not know, listing the examples, and starts nothing", async () => {
    const r = await box.run(["up", "prodution"], { pathDirs: [box.fakeCliDir, box.toolsDir] });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'npm run up: There is no example "prodution". The examples: adopt, component, gitops, lookups, production, quickstart, ' +
        "staging-fork, vpc-peering (npm run up -- <example> [pulumi flags]).\n",
    );
    expect(box.calls()).toEqual([]);
    expect(box.emulator()).toBeUndefined();
  });
});
