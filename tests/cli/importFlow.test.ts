/**
 * Taking over what exists, as the README tells a user to: `clouddb-import` writes the
 * `pulumi import --file` document and the program, `pulumi import --file ... --generate-code=false`
 * records the resources (no Read: the document gives their outputs), and the program it wrote,
 * as the project's own, then previews and updates with no change.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { ClouddbClient } from "../../provider/client";
import { REPO_ROOT } from "../../harness";
import { CliProject } from "../../harness/cli/cliProject";
import { describeWithCli } from "../../harness/cli/tools";
import { writeTypescriptProject } from "./support/typescriptProject";

describeWithCli("clouddb-import, then pulumi import --file, then up", (tools) => {
  let emulator: RunningEmulator;
  let api: ClouddbClient;
  let work: string;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, clockScale: 0.02 });
    api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
    work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-import-flow-"));
  });
  afterAll(async () => {
    await api.close();
    await emulator.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("imports a project's VPC, service and replica set; the program written for them changes nothing", async () => {
    const vpc = await api.perform("createVpc", { body: { name: "legacy-net", cidr: "10.71.0.0/16", region_code: "us-east-1" } });
    const made = await api.perform("createService", { body: { name: "legacy-db", cpu_millis: "1000", memory_gbs: "4" } });
    await api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 30_000 });
    const rs = await api.perform("createReplicaSet", {
      service: made.service_id,
      body: { name: "reads", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    await api.waitForReplicaSet(made.service_id, rs.id, { until: ["active"], timeoutMs: 30_000 });

    // The project: Pulumi's TypeScript template, its program the one clouddb-import writes.
    const source = path.join(work, "source");
    fs.mkdirSync(source);
    writeTypescriptProject(source, "imported");
    const doc = path.join(work, "import.json");
    const env = {
      ...process.env,
      CLOUDDB_API_URL: emulator.baseUrl,
      CLOUDDB_API_KEY: emulator.pat,
      CLOUDDB_PROJECT_ID: emulator.projectId,
    };
    // Asynchronously: the emulator answers from this process.
    await promisify(execFile)(
      process.execPath,
      [path.join(REPO_ROOT, "dist", "provider", "import", "cli.js"), "--out", doc, "--program", path.join(source, "index.ts")],
      { env },
    );

    const project = await CliProject.create(source, tools);
    try {
      await project.config(
        { "clouddb:apiUrl": emulator.baseUrl, "clouddb:projectId": emulator.projectId },
        { "clouddb:apiKey": emulator.pat },
      );
      const controls = new EmulatorControl(emulator.url, emulator.pat);
      await controls.clearRequests();
      const imported = await project.expect(["import", "--file", doc, "--yes", "--generate-code=false"]);
      expect(imported.stdout).toMatch(/= 3 imported/);
      expect(await controls.requests()).toEqual([]); // no Read: the document gave the outputs
      await project.expect(["preview", "--expect-no-changes"]);
      const up = await project.expect(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
      expect(up.stdout).toMatch(/4 unchanged/);
      expect((await controls.requests()).filter((r) => r.method !== "GET")).toEqual([]);
      await project.expect(["refresh", "--preview-only", "--expect-no-changes"]);
      const ids = (
        JSON.parse(await project.exportState()) as { deployment: { resources: { id?: string; protect?: boolean; type: string }[] } }
      ).deployment.resources
        .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
        .map((r) => [r.id, r.protect]);
      expect(ids.map(([id]) => id).sort()).toEqual([vpc.id, made.service_id, rs.id].sort());
      expect(ids.every(([, protect]) => protect === true)).toBe(true);
    } finally {
      await project.remove();
    }
  });
});
