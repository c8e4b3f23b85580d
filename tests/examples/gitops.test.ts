/**
 * examples/gitops: runs the steps of its GitHub Actions workflow as a runner would. Each
 * job's `run` steps run as written (bash, from the repository root, with $GITHUB_ENV);
 * its `pulumi/actions` step becomes the same command (`preview` or `up`) on the project in
 * `work-dir` through the real plugin host, with the environment the earlier steps left
 * and no stack config, as the action gives the CLI. `npm ci` has run before the tests.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { expectNoErrors, REPO_ROOT, TestStack, type Program, type UpResult } from "../../harness";
import { alive, gone, stopProcess } from "../scripts/support/sandbox";
import { ops } from "./support";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  if: string;
  steps: Step[];
}

const WORKFLOW = path.join(REPO_ROOT, "examples", "gitops", ".github", "workflows", "clouddb.yml");
const workflow = parse(fs.readFileSync(WORKFLOW, "utf8")) as { on: Record<string, unknown>; jobs: Record<string, Job> };

/** Reads `KEY=value` lines of a $GITHUB_ENV file. */
function readGithubEnv(file: string): Record<string, string> {
  if (!fs.existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** A job's steps run here, one after the other, as on a runner. */
class JobRun {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-gitops-"));
  readonly githubEnv = path.join(this.dir, "github-env");
  stack?: TestStack;
  result?: UpResult;

  /** What the earlier steps put into $GITHUB_ENV. */
  env(): Record<string, string> {
    return readGithubEnv(this.githubEnv);
  }

  /** Runs a `run` step with bash from the repository root. */
  run(step: Step): string {
    return execFileSync("bash", ["-e", "-c", step.run!], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...this.env(), GITHUB_ENV: this.githubEnv, RUNNER_TEMP: this.dir },
      encoding: "utf8",
      timeout: 30_000,
    });
  }

  /** Runs a `pulumi/actions` step: its command on the project in `work-dir`, with the job's environment. */
  async pulumi(step: Step): Promise<UpResult> {
    const workDir = path.join(REPO_ROOT, String(step.with!["work-dir"]));
    const project = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8"))![1];
    const clouddbEnv = Object.fromEntries(Object.entries(this.env()).filter(([k]) => k.startsWith("CLOUDDB_")));
    this.stack = await TestStack.create({ host: "plugin", project, stack: String(step.with!["stack-name"]), env: clouddbEnv });
    const program = require(workDir) as Program;
    const command = step.with!.command;
    if (command === "preview") this.result = await this.stack.preview(program);
    else if (command === "up") this.result = await this.stack.up(program);
    else throw new Error(`the test runs preview and up, not ${String(command)}`);
    return this.result;
  }

  /** Runs every step of `job`; the pulumi/actions step's result is kept in {@link result}. */
  async runJob(job: Job): Promise<void> {
    for (const step of job.steps) {
      if (step.uses?.startsWith("actions/checkout@") || step.uses?.startsWith("actions/setup-node@")) continue;
      if (step.run === "npm ci") continue; // done before the tests run
      if (step.run !== undefined) this.run(step);
      else if (step.uses?.startsWith("pulumi/actions@")) await this.pulumi(step);
      else throw new Error(`a step the test does not know: ${JSON.stringify(step)}`);
    }
  }

  /** Closes the plugin, stops an emulator left running (after a failure) and removes the temp dir. */
  async cleanup(): Promise<void> {
    await this.stack?.close();
    const pid = Number(this.env().CLOUDDB_EMULATOR_PID);
    if (pid > 0) await stopProcess(pid);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The emulator's log of API requests that changed something. */
async function writesTo(env: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${env.CLOUDDB_EMULATOR_URL}/_emulator/requests`, {
    headers: { authorization: `Bearer ${env.CLOUDDB_API_KEY}` },
  });
  const log = (await res.json()) as { method: string; path: string }[];
  return log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

describe("examples/gitops workflow", () => {
  it("previews pull requests and updates main, with the same emulator steps around the pulumi/actions step", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.on.push).toEqual({ branches: ["main"] });
    const { preview, update } = workflow.jobs;
    expect(preview.if).toBe("github.event_name == 'pull_request'");
    expect(update.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    const shape = (job: Job) => job.steps.map((s) => s.run ?? s.uses?.replace(/@.*/, ""));
    const expected = (cmd: string) => [
      "actions/checkout",
      "actions/setup-node",
      "npm ci",
      "node examples/gitops/ci/start-emulator.js",
      `pulumi/actions ${cmd}`,
      "node examples/gitops/ci/stop-emulator.js",
    ];
    const withCommand = (job: Job) => shape(job).map((s, i) => (s === "pulumi/actions" ? `${s} ${String(job.steps[i].with!.command)}` : s));
    expect(withCommand(preview)).toEqual(expected("preview"));
    expect(withCommand(update)).toEqual(expected("up"));
    // Actions that run on Node.js 24 (GitHub deprecated the Node 20 ones on its runners in 2026):
    // actions/checkout v5 and later, actions/setup-node v5 and later, pulumi/actions v7; the newest majors.
    const uses = new Set([preview, update].flatMap((job) => job.steps.flatMap((s) => (s.uses ? [s.uses] : []))));
    expect([...uses].sort()).toEqual(["actions/checkout@v7", "actions/setup-node@v7", "pulumi/actions@v7"]);
    for (const job of [preview, update]) {
      expect(job.steps.at(-1)!.if).toBe("always()");
      expect(job.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))!.with!["node-version"]).toBe(24);
      const action = job.steps.find((s) => s.uses?.startsWith("pulumi/actions@"))!;
      expect(action.uses).toBe("pulumi/actions@v7");
      expect(action.with).toMatchObject({ "work-dir": "examples/gitops", "stack-name": "ci", upsert: true, "cloud-url": "file://~" });
    }
  });

  describe("on a pull request", () => {
    const job = new JobRun();
    afterAll(() => job.cleanup());

    it("starts the emulator, previews every create without writing anything, and stops it", async () => {
      const { preview } = workflow.jobs;
      const steps = preview.steps;
      for (const step of steps.slice(0, steps.length - 1)) {
        if (step.run === "node examples/gitops/ci/start-emulator.js") {
          expect(job.run(step)).toMatch(/^::add-mask::\S+\nCloudDB emulator at http:\/\/127\.0\.0\.1:\d+\/public\/api\/v1 \(pid \d+\)/);
        } else if (step.uses?.startsWith("pulumi/actions@")) {
          await job.pulumi(step);
        }
      }
      const env = job.env();
      expect(Object.keys(env).sort()).toEqual([
        "CLOUDDB_API_KEY",
        "CLOUDDB_API_URL",
        "CLOUDDB_EMULATOR_PID",
        "CLOUDDB_EMULATOR_URL",
        "CLOUDDB_PROJECT_ID",
      ]);
      const r = expectNoErrors(job.result!);
      expect(ops(r)).toEqual({ net: "create", db: "create" });
      expect(await writesTo(env)).toEqual([]);

      const pid = Number(env.CLOUDDB_EMULATOR_PID);
      expect(alive(pid)).toBe(true);
      expect(job.run(steps.at(-1)!)).toBe(`Stopped the emulator (pid ${pid}).\n`);
      expect(await gone(pid, 5_000)).toBe(true);
    });
  });

  describe("on a push to main", () => {
    const job = new JobRun();
    afterAll(() => job.cleanup());

    it("runs every step: the database exists on the emulator, its password a secret, and the emulator is stopped", async () => {
      const { update } = workflow.jobs;
      const steps = update.steps;
      await job.runJob({ ...update, steps: steps.slice(0, steps.length - 1) });
      const env = job.env();
      const r = expectNoErrors(job.result!);
      expect(ops(r)).toEqual({ net: "create", db: "create" });
      expect(r.secretOutputNames).toContain("password");
      expect(String(r.outputs.host)).toMatch(/\.clouddb\.local$/);
      const services = (await (
        await fetch(`${env.CLOUDDB_API_URL}/projects/${env.CLOUDDB_PROJECT_ID}/services`, {
          headers: { authorization: `Bearer ${env.CLOUDDB_API_KEY}` },
        })
      ).json()) as { name: string; status: string; connection_pooler?: unknown }[];
      expect(services.map((s) => [s.name, s.status])).toEqual([["app-db", "READY"]]);
      expect(job.stack!.plaintextState()).not.toContain(String(r.outputs.password));

      const pid = Number(env.CLOUDDB_EMULATOR_PID);
      job.run(steps.at(-1)!);
      expect(await gone(pid, 5_000)).toBe(true);
    });
  });
});

describe("the emulator steps in a repository whose Pulumi project is in a subfolder", () => {
  // As the README says to copy them: the scripts in ci/ beside the project, the project's own
  // node_modules (npm ci in its folder), and the steps run from the repository's root.
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-gitops-repo-"));
  const githubEnv = path.join(repo, "github-env");
  const step = (script: string) =>
    spawnSync(process.execPath, [path.join("infra", "ci", script)], {
      cwd: repo,
      env: { ...process.env, ...readGithubEnv(githubEnv), GITHUB_ENV: githubEnv, RUNNER_TEMP: repo },
      encoding: "utf8",
      timeout: 30_000,
    });
  beforeAll(() => {
    fs.mkdirSync(path.join(repo, "infra", "ci"), { recursive: true });
    for (const script of ["start-emulator.js", "stop-emulator.js"]) {
      fs.copyFileSync(path.join(REPO_ROOT, "examples", "gitops", "ci", script), path.join(repo, "infra", "ci", script));
    }
  });
  afterAll(async () => {
    const pid = Number(readGithubEnv(githubEnv).CLOUDDB_EMULATOR_PID);
    if (pid > 0) await stopProcess(pid);
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it("says to install the package in the project when it is not there, instead of a stack trace", () => {
    const r = step("start-emulator.js");
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `start-emulator: pulumi-clouddb is not installed in ${path.join(repo, "infra")} (the Pulumi project beside this script) ` +
        `nor in ${repo}: run \`npm ci\` in the project's directory before this step (with \`working-directory:\` when it is in a subfolder).\n`,
    );
  });

  it("starts the emulator from the project's node_modules, and stops it", async () => {
    fs.mkdirSync(path.join(repo, "infra", "node_modules"));
    fs.symlinkSync(REPO_ROOT, path.join(repo, "infra", "node_modules", "pulumi-clouddb"), "dir");
    const start = step("start-emulator.js");
    expect(start.stderr).toBe("");
    expect(start.status).toBe(0);
    const env = readGithubEnv(githubEnv);
    const info = await fetch(`${env.CLOUDDB_API_URL}/auth/info`, { headers: { authorization: `Bearer ${env.CLOUDDB_API_KEY}` } });
    expect(info.status).toBe(200);
    const pid = Number(env.CLOUDDB_EMULATOR_PID);
    expect(step("stop-emulator.js").stdout).toBe(`Stopped the emulator (pid ${pid}).\n`);
    expect(await gone(pid, 5_000)).toBe(true);
  });
});
