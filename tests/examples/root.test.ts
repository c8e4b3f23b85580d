/**
 * The repository's own Pulumi.yaml: `pulumi up` at the root runs the quickstart. Its
 * program is found as the CLI finds it (`main`, harness/project.ts) and deployed through
 * the plugin started in the directory the CLI starts it in.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { expectNoErrors, loadProject, REPO_ROOT, TestStack, type Program } from "../../harness";
import { ops, stackConfig } from "../../harness/cloud";

const QUICKSTART = path.join(REPO_ROOT, "examples", "quickstart");

describe("the repository's Pulumi.yaml", () => {
  const project = loadProject(REPO_ROOT);

  it("runs the quickstart's program, in the quickstart's directory, under the quickstart's project name", () => {
    expect(project).toEqual({ name: "clouddb-quickstart", root: REPO_ROOT, pwd: QUICKSTART, program: path.join(QUICKSTART, "index.ts") });
    expect(loadProject(QUICKSTART).name).toBe(project.name);
    const manifest = parse(fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
    expect(manifest.runtime).toEqual({ name: "nodejs", options: { typescript: true } });
  });

  describe("deployed as `pulumi up` at the root deploys it", () => {
    let emulator: RunningEmulator;
    let stack: TestStack;
    const journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-journal-"));
    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, clockScale: 0.02 });
      stack = await TestStack.create({
        host: "plugin",
        cwd: project.pwd,
        project: project.name,
        config: stackConfig(emulator),
        env: { CLOUDDB_JOURNAL_DIR: journal },
      });
    });
    afterAll(async () => {
      await stack?.close();
      await emulator?.close();
      fs.rmSync(journal, { recursive: true, force: true });
    });

    it("creates the quickstart's VPC, service and replica set, then destroys them", async () => {
      const program = require(project.program) as Program;
      const r = expectNoErrors(await stack.up(program));
      expect(ops(r)).toEqual({ net: "create", db: "create", reporting: "create" });
      expect(Object.keys(r.outputs).sort()).toEqual([
        "host",
        "password",
        "poolerHost",
        "poolerPort",
        "port",
        "replicaHost",
        "serviceId",
        "vpcId",
      ]);
      expect(stack.pluginStderr()).toBe("");
      const gone = expectNoErrors(await stack.destroy());
      expect(gone.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete reporting", "delete db", "delete net"]);
    });
  });
});
