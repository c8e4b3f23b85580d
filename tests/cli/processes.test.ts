/**
 * What only a process can show, under the real Pulumi CLI as a user runs it (a project on
 * disk, the Node.js language host): the CLI killed (kill -9) while a service is being made,
 * then the next `up`; a Ctrl-C (SIGINT) while a service is being made; and what `pulumi
 * stack export` holds of the secrets.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { ClouddbClient } from "../../provider/client";
import { until } from "../../harness";
import { journalEntries } from "../../harness/cloud";
import { CliProject } from "../../harness/cli/cliProject";
import { describeWithCli } from "../../harness/cli/tools";

/** A JavaScript project (no ts-node) whose program makes one service, and exports its password. */
function writeProject(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: cli-processes\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "cli-processes", main: "index.js" }));
  fs.writeFileSync(
    path.join(dir, "index.js"),
    'const clouddb = require("pulumi-clouddb");\nconst db = new clouddb.Service("db", { name: "orders" });\nexports.password = db.password;\n',
  );
}

/** How many entries of the create journal in `dir` a create left unrecorded (its engine had died when it returned). */
function orphanedEntries(dir: string): number {
  const unrecorded = (f: string): boolean => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { unrecorded?: boolean }).unrecorded === true;
    } catch {
      return false; // replaced or removed meanwhile: look again
    }
  };
  return journalEntries(dir).filter(unrecorded).length;
}

describeWithCli("the CLI's processes", (tools) => {
  let emulator: RunningEmulator;
  let api: ClouddbClient;
  let controls: EmulatorControl;
  let project: CliProject;
  let work: string;
  beforeEach(async () => {
    // A service takes several seconds to be ready: time to interrupt its create.
    emulator = await startEmulator({ port: 0, clockScale: 0.5 });
    api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
    controls = new EmulatorControl(emulator.url, emulator.pat);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-cli-processes-"));
    writeProject(path.join(work, "source"));
    project = await CliProject.create(path.join(work, "source"), tools, { env: { CLOUDDB_JOURNAL_DIR: path.join(work, "journal") } });
    await project.config(
      { "clouddb:apiUrl": emulator.baseUrl, "clouddb:projectId": emulator.projectId, "clouddb:pollInterval": "100ms" },
      { "clouddb:apiKey": emulator.pat },
    );
  });
  afterEach(async () => {
    await project.remove();
    await api.close();
    await emulator.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Starts `pulumi up` and resolves once the API has the service's create, with the running command. */
  async function upUntilCreated(): Promise<{ running: Promise<{ code: number | null }> }> {
    const running = project.run(["up", "--yes", "--skip-preview"]);
    await until(
      "the create at the API",
      async () => ((await controls.requests()).some((r) => r.method === "POST" && r.path.endsWith("/services")) ? true : undefined),
      60_000,
    );
    return { running };
  }

  it("kill -9 mid-create: the stack is locked until pulumi cancel; the next up takes the service over, not a second; refresh clears the pending create", async () => {
    const { running } = await upUntilCreated();
    project.signal("SIGKILL");
    await running;
    const locked = await project.run(["up", "--yes", "--skip-preview"]);
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    await project.expect(["cancel", "--yes"]);
    // The plugin, orphaned, still waits for the service it made; while it runs, a next up is
    // told that the create is under way in another process. Once the service is ready it
    // returns to no one and marks its journal entry unrecorded, for the next up to take over.
    await until(
      "the orphaned plugin to end its create",
      async () => (orphanedEntries(path.join(work, "journal")) > 0 ? true : undefined),
      60_000,
    );
    const next = await project.expect(["up", "--yes", "--skip-preview"]);
    expect(next.stdout).toMatch(/1 pending operations from previous deployment/);
    expect(next.stdout).toMatch(/was made by an earlier create that did not finish/);
    const services = (await api.perform("listServices")).items;
    expect(services).toHaveLength(1);
    const state = JSON.parse(await project.exportState()) as {
      deployment: { resources: { type: string; id?: string }[]; pending_operations?: unknown[] };
    };
    expect(state.deployment.resources.find((r) => r.type.endsWith(":Service"))?.id).toBe(services[0].service_id);
    expect(state.deployment.pending_operations ?? []).toHaveLength(1);
    await project.expect(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    const cleared = JSON.parse(await project.exportState()) as { deployment: { pending_operations?: unknown[] } };
    expect(cleared.deployment.pending_operations ?? []).toEqual([]);
  });

  it("Ctrl-C mid-create: the CLI stops; the service it made is in state or taken over by the next up, never made twice", async () => {
    const { running } = await upUntilCreated();
    project.signal("SIGINT");
    const stopped = await running;
    expect(stopped.code).not.toBe(0);
    await project.run(["cancel", "--yes"]); // a lock, if the CLI left one
    await project.expect(["up", "--yes", "--skip-preview"]);
    const services = (await api.perform("listServices")).items;
    expect(services).toHaveLength(1);
    const state = JSON.parse(await project.exportState()) as { deployment: { resources: { type: string; id?: string }[] } };
    expect(state.deployment.resources.find((r) => r.type.endsWith(":Service"))?.id).toBe(services[0].service_id);
  });

  it("pulumi stack export holds neither the API key nor the password in plain text", async () => {
    await project.expect(["up", "--yes", "--skip-preview"]);
    const password = (await project.expect(["stack", "output", "password", "--show-secrets"])).stdout.trim();
    expect(password.length).toBeGreaterThanOrEqual(8);
    const stored = await project.exportState();
    for (const secret of [password, emulator.pat]) expect(stored).not.toContain(secret);
    const shown = await project.expect(["stack", "output", "password"]);
    expect(shown.stdout).not.toContain(password);
  });
});
