/**
 * A lean start: the first call a fresh provider process serves (Check, which loads the
 * provider's module) against this tree and against the baseline, measured in the same run,
 * each in a fresh plugin process, alternating, median of several. `check` and `diff` must
 * load neither undici nor the client.
 */
import { execFileSync } from "child_process";
import { REPO_ROOT } from "../harness";
import { firstCall, median } from "./firstCall";
import type { Report } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

const firstCallMs = async (cwd: string): Promise<number> => (await firstCall({ cwd })).ms;

/** Adds the lean start's rows. */
export async function leanStart(report: Report, baseline: Tree, sizes: Sizes): Promise<void> {
  await firstCallMs(REPO_ROOT); // warm the file cache
  await firstCallMs(baseline.root);
  const now: number[] = [];
  const before: number[] = [];
  for (let i = 0; i < sizes.starts; i++) {
    now.push(await firstCallMs(REPO_ROOT));
    before.push(await firstCallMs(baseline.root));
  }
  const loaded = (expression: string) =>
    execFileSync(process.execPath, ["-e", `require("pulumi-clouddb/provider/service"); console.log(${expression})`], { cwd: REPO_ROOT })
      .toString()
      .trim();
  const files = Number(loaded("Object.keys(require.cache).length"));
  const client = loaded("Object.keys(require.cache).some((m) => /\\/undici\\/|provider\\/client\\/client\\.js/.test(m))");
  report.raw.leanStart = { now, before, filesLoaded: files };
  const ratio = median(now) / median(before);
  report.row(
    "lean start",
    `first call of a fresh provider process (Check of a Service), median of ${sizes.starts}`,
    `${median(now).toFixed(0)} ms (${ratio.toFixed(2)} × baseline)`,
    {
      baseline: `${median(before).toFixed(0)} ms`,
      target: "<= 0.5 × baseline",
      pass: ratio <= 0.5,
    },
  );
  report.row(
    "lean start",
    "files loaded by provider/service (undici or the client among them?)",
    `${files} (${client === "true" ? "yes" : "no"})`,
    {
      target: "no undici, no client",
      pass: client === "false",
    },
  );
}
