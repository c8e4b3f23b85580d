/**
 * The compile cache the provider turns on for speed (provider/framework/compileCache.ts),
 * in plugin processes the engine ends with a signal: how many files one such process left
 * in the cache, and the first call of the next fresh processes with that cache against
 * fresh processes with the cache off (`NODE_DISABLE_COMPILE_CACHE=1`), alternating, the
 * median of each. It runs on the Node binary `BENCH_NODE` names (one of 22.10 or later,
 * which has `module.flushCompileCache`), else on the bench's own: on a Node without a
 * compile cache (Node 20) the provider turns none on, and the row says so.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../harness";
import { firstCall, median } from "./firstCall";
import { count, type Report } from "./report";
import type { Sizes } from "./sizes";

const S = "4 compile cache";
const TARGET = "works in a plugin the engine ends, or is gone";

/** Every file under `dir`. */
function filesUnder(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** Adds the compile cache's rows. */
export async function compileCache(report: Report, sizes: Sizes): Promise<void> {
  const node = process.env.BENCH_NODE ?? process.execPath;
  const [version, flush] = execFileSync(node, ["-p", 'process.version + " " + typeof require("module").flushCompileCache'])
    .toString()
    .trim()
    .split(" ");
  if (flush !== "function") {
    report.row(S, `files the provider's compile cache holds after a plugin the engine ended (Node ${version})`, "no compile cache", {
      target: TARGET,
      pass: true,
      why: `gone on Node ${version}: it has no module.enableCompileCache, the provider turns nothing on; BENCH_NODE=<a Node 22.10+ binary> measures it`,
    });
    return;
  }
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "bench-compile-cache-"));
  const env = { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}`, NODE_COMPILE_CACHE: cache };
  try {
    const filled = await firstCall({ cwd: REPO_ROOT, env, end: "close" });
    if (filled.exe !== fs.realpathSync(node)) throw new Error(`the plugin ran ${filled.exe ?? "an unknown node"}, not ${node}`);
    const files = filesUnder(cache);
    const withCache: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < sizes.starts; i++) {
      withCache.push((await firstCall({ cwd: REPO_ROOT, env, end: "close" })).ms);
      without.push((await firstCall({ cwd: REPO_ROOT, env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }, end: "close" })).ms);
    }
    report.raw.compileCache = { node: version, files, withCache, without };
    report.row(S, `files in the compile cache after one plugin process the engine ended (SIGINT; Node ${version})`, count(files), {
      target: "> 0",
      pass: files > 0,
    });
    const [a, b] = [median(withCache), median(without)];
    report.row(
      S,
      `first call of a fresh plugin process with that cache / with the cache off (Node ${version}), median of ${sizes.starts}`,
      `${a.toFixed(0)} ms / ${b.toFixed(0)} ms = ${(a / b).toFixed(2)}`,
      { target: `${TARGET}: < 1`, pass: a < b },
    );
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}
