/**
 * `clouddb-import` and `pulumi import --file`: the document the command writes for what
 * exists in a project, imported as the engine imports such a file (Check on the given
 * inputs, no Read), then an `up` of the program the command prints: no change, no write.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { expectNoErrors, REPO_ROOT, type ImportFileResource } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

const run = promisify(execFile);

describe("clouddb-import without what it needs", () => {
  it("says every missing or bad setting at once, in its own terms, without a stack trace or the key", async () => {
    const cli = path.join(REPO_ROOT, "dist", "provider", "import", "cli.js");
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, CLOUDDB_API_URL: "https://deploy:hunter2-pw@api.example" };
    const failed = await run(process.execPath, [cli, "--out", path.join(os.tmpdir(), "never.json")], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 2 });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toBe(
      "clouddb-import: cannot start:\n" +
        '  CLOUDDB_API_URL: "https://[REDACTED]@api.example" does not end in /public/api/v1, the API\'s base path: use "https://api.example/public/api/v1"\n' +
        "  CLOUDDB_API_KEY is not set: a personal access token or OAuth token of the project\n" +
        "  no project: set CLOUDDB_PROJECT_ID or pass --project <id>\n",
    );
  });
});

describe("importing what exists", () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-import-"));
    // The printed program imports pulumi-clouddb, as a user's project would.
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  });
  afterAll(async () => {
    await cloud.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes a document and a program; after the import, an up of the program changes nothing", async () => {
    const api = cloud.api;
    const vpc = await api.perform("createVpc", { body: { name: "legacy-net", cidr: "10.70.0.0/16", region_code: "us-east-1" } });
    await api.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-legacy" },
    });
    const made = await api.perform("createService", { body: { name: "legacy-db", cpu_millis: "1000", memory_gbs: "4" } });
    await api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 10_000 });
    await api.perform("enableServicePooler", { service: made.service_id });
    await api.perform("attachServiceToVpc", { service: made.service_id, body: { vpc_id: vpc.id } });
    await api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 10_000 });
    const rs = await api.perform("createReplicaSet", {
      service: made.service_id,
      body: { name: "reads", nodes: 2, cpu_millis: 500, memory_gbs: 2 },
    });
    await api.waitForReplicaSet(made.service_id, rs.id, { until: ["active"], timeoutMs: 10_000 });

    const out = path.join(dir, "import.json");
    const programFile = path.join(dir, "program.ts");
    const env = {
      ...process.env,
      CLOUDDB_API_URL: cloud.emulator.baseUrl,
      CLOUDDB_API_KEY: cloud.emulator.pat,
      CLOUDDB_PROJECT_ID: cloud.emulator.projectId,
    };
    const cli = path.join(REPO_ROOT, "dist", "provider", "import", "cli.js");
    const { stderr } = await run(process.execPath, [cli, "--out", out, "--program", programFile], { env });
    expect(stderr).toContain("wrote 4 resources");
    expect(stderr).not.toContain(cloud.emulator.pat);
    const doc = JSON.parse(fs.readFileSync(out, "utf8")) as { resources: ImportFileResource[] };
    expect(doc.resources.map((r) => `${r.type.split(":").pop()}:${r.id}`)).toEqual([
      `Vpc:${vpc.id}`,
      expect.stringMatching(/^VpcPeering:/),
      `Service:${made.service_id}`,
      `ReadReplicaSet:${rs.id}`,
    ]);
    const program = fs.readFileSync(programFile, "utf8");
    expect(program).toContain("vpcId: legacyNet.vpcId");
    expect(program).toContain("serviceId: legacyDb.serviceId");

    await cloud.clearRequests();
    const imported = expectNoErrors(await cloud.stack.importFile(doc.resources));
    expect(imported.steps.map((s) => s.op)).toEqual(["import", "import", "import", "import"]);
    expect(imported.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
    expect(await cloud.requests()).toEqual([]); // no Read: outputs were given
    expect(cloud.stack.resources().every((r) => r.protect)).toBe(true);

    const declared = () => {
      jest.isolateModules(() => {
        require(programFile);
      });
    };
    const up = expectNoErrors(await cloud.stack.up(declared));
    expect(Object.values(ops(up))).toEqual(["same", "same", "same", "same"]);
    // The document's providers are the SDK's own: the up stored the same text.
    for (const r of doc.resources) {
      expect(cloud.stack.resource(r.name).inputs.__provider).toBe(r.inputs!.__provider);
      expect(cloud.stack.resource(r.name).outputs.__provider).toBe(r.outputs!.__provider);
    }
    expect(writes(await cloud.requests())).toEqual([]);
    expect(ops(expectNoErrors(await cloud.stack.refresh()))).toEqual(Object.fromEntries(doc.resources.map((r) => [r.name, "same"])));
  });
});
