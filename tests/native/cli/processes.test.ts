/**
 * The native plugin's processes and secrets under the real CLI, with a Pulumi YAML program
 * (no SDK to build): Ctrl-C mid-create stops the create's wait at once, whenever it comes
 * after the API's answer, and the next `up` resumes the one service; `kill -9` of the CLI
 * mid-create ends the plugin within seconds, leaving the journal as a kill would, and after
 * `pulumi cancel` the next `up` takes the service over, with no second one; and what the CLI
 * prints (its output, its event log) and `pulumi stack export` hold no secret: a userinfo
 * password in `apiUrl`, a name, an environment or a size given as secrets, a key of 6,400
 * characters.
 */
import { spawn, type ChildProcess } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { until } from "../../../harness";
import { journalEntries } from "../../../harness/cloud";
import { journalIds } from "../../../harness/journalIds";
import { pluginProcesses } from "../../../harness/cli/processes";
import { alive } from "../../../harness/processes";
import { ClouddbClient } from "../../../provider/client";
import { cliWorkspace, describeWithCli, ok, run, type Ran } from "./support";

/** A YAML program of one service named `name` (its config `dbName`, `environment`, `cpuMillis` used when set). */
function program(dir: string, body: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: clouddb-native-processes\nruntime: yaml\n${body}`);
}

const ONE_SERVICE = "resources:\n  db:\n    type: clouddb:index:Service\n    properties:\n      name: orders\n";

/** The forms of `secret`, and of its first 24 characters (a message that cut it), a text may hold it in: raw, percent- and form-encoded, JSON-escaped, base64. */
function formsOf(secret: string): string[] {
  return [...new Set([secret, secret.slice(0, 24)])].flatMap((s) => [
    s,
    encodeURIComponent(s),
    new URLSearchParams({ s }).toString().slice(2),
    JSON.stringify(s).slice(1, -1),
    Buffer.from(s).toString("base64").slice(0, -4),
  ]);
}

describeWithCli("the native plugin's processes and secrets, under the real CLI", () => {
  let emu: RunningEmulator;
  let api: ClouddbClient;
  let control: EmulatorControl;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  /** The `pulumi` command running now. */
  let running: ChildProcess | undefined;

  const pulumi = (...args: string[]): Promise<Ran> => run("pulumi", [...args, "--non-interactive"], { cwd: dir, env });
  const pulumiOk = (...args: string[]): Promise<Ran> => ok("pulumi", [...args, "--non-interactive"], { cwd: dir, env });
  /** Starts `pulumi up`; resolves with how it ended. */
  const startUp = (...extra: string[]): Promise<{ code: number | null; out: string }> =>
    new Promise((resolve) => {
      const child = spawn("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive", ...extra], { cwd: dir, env });
      running = child;
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      child.on("close", (code) => resolve({ code, out }));
    });
  /** Makes stack `name` of the program in `dir`, configured for the emulator (the default provider's `clouddb:*` config). */
  const stackOf = async (name: string, extra: Record<string, string> = {}): Promise<void> => {
    await pulumiOk("stack", "init", name);
    for (const [k, v] of Object.entries({ apiUrl: emu.baseUrl, projectId: emu.projectId, pollInterval: "100ms", ...extra }))
      await pulumiOk("config", "set", `clouddb:${k}`, v);
    await ok("pulumi", ["config", "set", "--secret", "clouddb:apiKey", emu.pat, "--non-interactive"], { cwd: dir, env });
  };
  /** Resolves once the API has the service named `name`. */
  const serviceAtApi = (name: string) =>
    until("the service at the API", async () => (await api.perform("listServices")).items.find((s) => s.name === name), 60_000);

  beforeAll(async () => {
    // A service takes about 10 s to be ready: a create that stops sooner stopped waiting.
    emu = await startEmulator({ port: 0, clockScale: 1 });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    control = new EmulatorControl(emu.url, emu.pat);
    ({ work, env } = await cliWorkspace("native-processes"));
    env = { ...env, PULUMI_DEBUG_COMMANDS: "true" }; // the CLI's --event-log: every engine event, as JSON
    dir = path.join(work, "program");
  });
  afterEach(async () => {
    if (running && running.exitCode === null && running.signalCode === null) running.kill("SIGKILL");
    await control.reset();
    fs.rmSync(path.join(work, "journal"), { recursive: true, force: true });
  });
  afterAll(async () => {
    await api?.close();
    await emu?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it.each([0, 50, 150])(
    "Ctrl-C %i ms after the API answered the create: the wait stops at once, the service is kept in state, and the next up resumes it",
    async (delay) => {
      program(dir, ONE_SERVICE);
      await stackOf(`ctrl-c-${delay}`);
      const up = startUp();
      const made = await serviceAtApi("orders");
      await new Promise((r) => setTimeout(r, delay));
      running!.kill("SIGINT");
      const stopped = await up;
      expect(stopped.code).not.toBe(0);
      // Stopped while the service was still being made: the create did not wait for it.
      expect((await api.perform("getService", { service: made.service_id })).status).not.toBe("READY");
      await pulumi("cancel", "--yes"); // a lock, if the CLI left one
      await pulumiOk("up", "--yes", "--skip-preview");
      const services = (await api.perform("listServices")).items;
      expect(services.map((s) => s.service_id)).toEqual([made.service_id]);
      expect((await api.perform("getService", { service: made.service_id })).status).toBe("READY");
    },
  );

  it("kill -9 of the CLI mid-create: the plugin exits within seconds, its journal entry kept; after pulumi cancel the next up takes the service over", async () => {
    program(dir, ONE_SERVICE);
    await stackOf("killed");
    const up = startUp();
    const made = await serviceAtApi("orders");
    const journal = path.join(work, "journal");
    // The plugin waits, polling, once its journal has the id the API gave (written before the wait).
    await until("the journal to have the service's id", async () => (journalIds(journal).includes(made.service_id) ? true : undefined));
    const plugins = pluginProcesses(running!.pid);
    expect(plugins.length).toBeGreaterThan(0);
    running!.kill("SIGKILL");
    await up;
    await until("the plugin to exit", async () => (plugins.some(alive) ? undefined : true), 15_000);
    expect((await api.perform("getService", { service: made.service_id })).status).not.toBe("READY");
    const entries = journalEntries(journal).map((f) => JSON.parse(fs.readFileSync(path.join(journal, f), "utf8")) as { id?: string });
    expect(entries.map((e) => e.id)).toEqual([made.service_id]);
    expect((await pulumi("up", "--yes", "--skip-preview")).stderr).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    await pulumiOk("cancel", "--yes");
    const next = await pulumiOk("up", "--yes", "--skip-preview");
    expect(next.stdout).toMatch(/was made by an earlier create that did not finish/);
    expect((await api.perform("listServices")).items.map((s) => s.service_id)).toEqual([made.service_id]);
    const state = JSON.parse((await pulumiOk("stack", "export")).stdout) as { deployment: { resources: { type: string; id?: string }[] } };
    expect(state.deployment.resources.find((r) => r.type === "clouddb:index:Service")?.id).toBe(made.service_id);
  });

  it("prints no secret, in its output or its event log, nor keeps one in stack export: apiUrl's userinfo password, inputs given as secrets, a 6,400-character key", async () => {
    const password = `pw-${randomBytes(6).toString("hex")}`;
    const name = `n${randomBytes(70).toString("hex")}`; // 141 characters, too long for a name: a check failure
    program(
      dir,
      "config:\n  dbName:\n    type: string\n    secret: true\n  environment:\n    type: string\n    secret: true\n" +
        "resources:\n  db:\n    type: clouddb:index:Service\n    properties:\n      name: ${dbName}\n      environment: ${environment}\n",
    );
    await stackOf("secrets");
    await ok("pulumi", ["config", "set", "--secret", "dbName", name, "--non-interactive"], { cwd: dir, env });
    await ok("pulumi", ["config", "set", "--secret", "environment", "STAGING-only", "--non-interactive"], { cwd: dir, env });
    const printed: string[] = [];
    const events = path.join(work, "events.json");
    // Every engine event but the prelude, which echoes the stack's configuration as the user set it (a plain apiUrl is theirs to show).
    const eventLog = (): string =>
      fs
        .readFileSync(events, "utf8")
        .split("\n")
        .filter((line) => !line.includes('"preludeEvent"'))
        .join("\n");
    // A bad name and environment, given as secrets: Check fails, quoting neither.
    const badInputs = await pulumi("preview", "--event-log", events);
    expect(badInputs.code).not.toBe(0);
    expect(badInputs.stdout + badInputs.stderr).toMatch(/name is \[secret\]/);
    printed.push(badInputs.stdout, badInputs.stderr, eventLog());
    // A userinfo password in apiUrl (and a path that is not the API's): CheckConfig fails, quoting no password.
    const url = new URL(emu.baseUrl);
    await pulumiOk("config", "set", "clouddb:apiUrl", `${url.protocol}//ops:${password}@${url.host}/public/api/v2`);
    const badUrl = await pulumi("preview", "--event-log", events);
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.stdout + badUrl.stderr).toMatch(/does not end in \/public\/api\/v1/);
    printed.push(badUrl.stdout, badUrl.stderr, eventLog());
    // A key of 6,400 characters, and the inputs right: up, then what the state keeps.
    const key = randomBytes(4_800).toString("base64");
    const keyed = await startEmulator({ port: 0, clockScale: 0.02, pat: key });
    try {
      await pulumiOk("config", "set", "clouddb:apiUrl", keyed.baseUrl);
      await pulumiOk("config", "set", "clouddb:projectId", keyed.projectId);
      await ok("pulumi", ["config", "set", "--secret", "clouddb:apiKey", key, "--non-interactive"], { cwd: dir, env });
      await ok("pulumi", ["config", "set", "--secret", "dbName", "secret-name", "--non-interactive"], { cwd: dir, env });
      await ok("pulumi", ["config", "set", "--secret", "environment", "PROD", "--non-interactive"], { cwd: dir, env });
      const up = await pulumiOk("up", "--yes", "--skip-preview", "--event-log", events);
      printed.push(up.stdout, up.stderr, eventLog());
      const exported = (await pulumiOk("stack", "export")).stdout;
      for (const [where, text] of Object.entries({ "what the CLI printed": printed.join("\n"), "stack export": exported })) {
        for (const secret of [password, name, "STAGING-only", key, "secret-name"])
          for (const form of formsOf(secret))
            expect([where, secret.slice(0, 8), text.includes(form)]).toEqual([where, secret.slice(0, 8), false]);
      }
      await pulumiOk("destroy", "--yes", "--skip-preview");
    } finally {
      await keyed.close();
    }
  });
});
