/**
 * What only a process can show, under the real Pulumi CLI as a user runs it (a project on
 * disk, the Node.js language host): the CLI killed (kill -9) while a service is being made
 * (its provider process exits within seconds), then the next `up`; a Ctrl-C (SIGINT) while a
 * service is being made; and what `pulumi stack export` holds of the secrets.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { ClouddbClient } from "../../provider/client";
import { until } from "../../harness";
import { alive } from "../../harness/processes";
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

/** The ids of the entries of the create journal in `dir` that a create left unrecorded (its engine had died when it returned). */
function orphanedEntries(dir: string): string[] {
  const unrecorded = (f: string): string[] => {
    try {
      const entry = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { unrecorded?: boolean; id?: string };
      return entry.unrecorded === true ? [entry.id ?? ""] : [];
    } catch {
      return []; // replaced or removed meanwhile
    }
  };
  return journalEntries(dir).flatMap(unrecorded);
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

  it("kill -9 mid-create: the provider process ends its wait and exits within seconds, the journal keeps the create; after pulumi cancel the next up takes the service over, not a second; refresh clears the pending create", async () => {
    const { running } = await upUntilCreated();
    const service = await until("the service at the API", async () => (await api.perform("listServices")).items[0], 30_000);
    const plugins = project.plugins();
    expect(plugins.length).toBeGreaterThan(0); // the dynamic-provider host (and the shell that runs it)
    project.signal("SIGKILL");
    await running;
    // Its engine gone (its standard input, the CLI's pipe, ended), the provider ends the create's
    // wait and exits, within seconds: not minutes later, once the service is ready.
    await until("the orphaned provider process to exit", async () => (plugins.some(alive) ? undefined : true), 15_000);
    expect((await api.perform("getService", { service: service.service_id })).status).not.toBe("READY");
    // Its journal entry stays, with the id, marked as returned to no one: the next up takes it over.
    expect(orphanedEntries(path.join(work, "journal"))).toEqual([service.service_id]);
    const locked = await project.run(["up", "--yes", "--skip-preview"]);
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    await project.expect(["cancel", "--yes"]);
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

  it("prints no secret and keeps none in stack export: apiUrl's userinfo password, a key of 6,400 characters", async () => {
    const password = `pw-${randomBytes(6).toString("hex")}`;
    const url = new URL(emulator.baseUrl);
    await project.config({ "clouddb:apiUrl": `${url.protocol}//ops:${password}@${url.host}/public/api/v2` });
    const refused = await project.run(["preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/does not end in \/public\/api\/v1/);
    const key = randomBytes(4_800).toString("base64");
    const keyed = await startEmulator({ port: 0, clockScale: 0.02, pat: key });
    try {
      await project.config({ "clouddb:apiUrl": keyed.baseUrl, "clouddb:projectId": keyed.projectId }, { "clouddb:apiKey": key });
      const up = await project.expect(["up", "--yes", "--skip-preview"]);
      const printed = [refused.stdout, refused.stderr, up.stdout, up.stderr].join("\n");
      const exported = await project.exportState();
      for (const [where, text] of Object.entries({ "what the CLI printed": printed, "stack export": exported })) {
        for (const secret of [password, key, key.slice(0, 24)]) {
          const forms = [
            secret,
            encodeURIComponent(secret),
            JSON.stringify(secret).slice(1, -1),
            Buffer.from(secret).toString("base64").slice(0, -4),
          ];
          for (const form of forms) expect([where, secret.slice(0, 6), text.includes(form)]).toEqual([where, secret.slice(0, 6), false]);
        }
      }
      await project.expect(["destroy", "--yes", "--skip-preview"]);
    } finally {
      await keyed.close();
    }
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
