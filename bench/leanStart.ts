/**
 * A lean start: the first call a fresh provider process serves (Check, which loads the
 * provider's module) against this tree and against a base commit (BENCH_BASE, default the
 * commit before the redesign), measured in the same run, each in a fresh plugin process,
 * alternating, median of several. `check` and `diff` must load neither undici nor the client.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PluginHost, REPO_ROOT } from "../harness";
import { providerText } from "../sdk/trampoline";
import { Report } from "./report";

/** The commit before check and diff stopped loading the client (the redesign of issue 11). */
const DEFAULT_BASE = "0b128e4";
const ROUNDS = 5;

/** A checkout of `ref`, built, with its own node_modules view (the repository's, but pulumi-clouddb is that tree). */
function baseTree(ref: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-base-"));
  execFileSync("git", ["-C", REPO_ROOT, "worktree", "add", "--detach", dir, ref], { stdio: "ignore" });
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
    if (entry !== "pulumi-clouddb") fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry));
  }
  fs.symlinkSync(dir, path.join(modules, "pulumi-clouddb"), "dir");
  execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], {
    cwd: dir,
    stdio: "ignore",
  });
  return dir;
}

async function firstCallMs(cwd: string, providerText: string): Promise<number> {
  const plugin = new PluginHost({ project: "bench", cwd, env: {} });
  try {
    await plugin.start();
    await plugin.configure({ "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k" }, []);
    const urn = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/clouddb:Service::db";
    const started = process.hrtime.bigint();
    await plugin.check(urn, {}, { __provider: providerText, name: "lean" });
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    await plugin.kill();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Adds the lean start's rows. */
export async function leanStart(report: Report): Promise<void> {
  const ref = process.env.BENCH_BASE ?? DEFAULT_BASE;
  const base = baseTree(ref);
  try {
    const text = providerText("service");
    await firstCallMs(REPO_ROOT, text); // warm the file cache
    await firstCallMs(base, text);
    const now: number[] = [];
    const before: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      now.push(await firstCallMs(REPO_ROOT, text));
      before.push(await firstCallMs(base, text));
    }
    const loaded = Number(
      execFileSync(process.execPath, ["-e", 'require("pulumi-clouddb/provider/service"); console.log(Object.keys(require.cache).length)'], {
        cwd: REPO_ROOT,
      }).toString(),
    );
    const client = execFileSync(
      process.execPath,
      [
        "-e",
        'require("pulumi-clouddb/provider/service"); console.log(Object.keys(require.cache).some((m) => /\\/undici\\/|provider\\/client\\/client\\.js/.test(m)))',
      ],
      {
        cwd: REPO_ROOT,
      },
    )
      .toString()
      .trim();
    report.raw.leanStart = { base: ref, now, before, filesLoaded: loaded };
    const ratio = median(now) / median(before);
    report.row(
      "4 lean start",
      `first call of a fresh provider process (Check of a Service), median of ${ROUNDS}: now / ${ref}`,
      `${median(now).toFixed(0)} ms / ${median(before).toFixed(0)} ms = ${ratio.toFixed(2)}`,
      "<= 0.5",
      ratio <= 0.5,
    );
    report.row(
      "4 lean start",
      "files loaded by provider/service (undici or the client among them?)",
      `${loaded} (${client === "true" ? "yes" : "no"})`,
      "no undici, no client",
      client === "false",
    );
  } finally {
    execFileSync("git", ["-C", REPO_ROOT, "worktree", "remove", "--force", base], { stdio: "ignore" });
  }
}
