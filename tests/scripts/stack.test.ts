/**
 * `npm run up` and friends (scripts/stack.js) as a newcomer meets them: a `pulumi` on PATH
 * is used first (the npm launcher in node_modules/.bin is skipped); without one, the
 * pinned `pulumi` npm package fetches the CLI once, saying so; where it cannot be
 * fetched, a message says how to install it. A fake CLI records what it is asked to do.
 */
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../harness";
import { alive, gone, Sandbox } from "./support/sandbox";

const PINNED = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies.pulumi;
const NODE_BIN = path.join(REPO_ROOT, "node_modules", ".bin");
const example = (name: string): string => path.join(REPO_ROOT, "examples", name);

describe("npm run up with a pulumi on PATH", () => {
  const box = new Sandbox();
  afterAll(() => box.cleanup());

  it("uses it, though the npm launcher comes first on PATH, and deploys the quickstart to a fresh emulator", async () => {
    // `npm run` puts node_modules/.bin (holding the `pulumi` npm launcher) first on PATH.
    const r = await box.run(["up"], { pathDirs: [NODE_BIN, box.fakeCliDir, box.toolsDir] });
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

  it("says how to install the CLI when the pinned npm package cannot fetch it, and starts nothing", async () => {
    const r = await box.run(["up"], { pathDirs: [NODE_BIN, box.toolsDir], preload: "offline.js" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`fetching Pulumi CLI v${PINNED} once`);
    expect(r.stderr).toContain(`Could not fetch the Pulumi CLI v${PINNED} (the \`pulumi\` npm package said: pulumi: fetch failed).`);
    expect(r.stderr).toContain("Install it (https://www.pulumi.com/docs/install/)");
    expect(r.stderr).toContain("curl -fsSL https://get.pulumi.com | sh");
    expect(r.stderr).toContain("then run `npm run up` again");
    expect(box.emulator()).toBeUndefined();
    expect(box.calls()).toEqual([]);
  });

  it("fetches the CLI once through the pinned npm package, saying so, and uses it from then on", async () => {
    const first = await box.run(["preview"], { pathDirs: [box.toolsDir], preload: "fake-get-pulumi.js" });
    expect(first.stderr).toContain(
      `The Pulumi CLI is not on PATH: fetching Pulumi CLI v${PINNED} once, through the \`pulumi\` npm package`,
    );
    expect(first.stderr).toContain(`Fetched Pulumi CLI v${PINNED}: ${path.join(box.pulumiHome, "versions", PINNED, "bin", "pulumi")}`);
    expect(first.code).toBe(0);
    expect(box.calls().map((c) => c.args)).toEqual([
      "version",
      "stack select local",
      "stack init local",
      `config set clouddb:apiUrl ${box.emulator()!.CLOUDDB_API_URL}`,
      "config set clouddb:projectId quickstart",
      "config set --secret clouddb:apiKey",
      "preview",
    ]);

    const second = await box.run(["preview"], { pathDirs: [box.toolsDir], preload: "offline.js" });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain("fetching");
    expect(box.calls().pop()!.args).toBe("preview");
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
