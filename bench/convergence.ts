/**
 * Convergence and API economy of one service create whose provisioning takes T = 30 s
 * (emulated), through the real plugin: the polls it costs and how late it sees READY, in a
 * first run (no prior) and a later one (the durations the first measured); the writes per
 * create; a no-op `up`. A warm-up run comes first, so the figures are not the harness's
 * own cold start. The anchors' schedules are computed for the same T.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, TestStack } from "../harness";
import { defaultConfig, startEmulatorProcess, type LoggedRequest } from "../harness/emulatorProcess";
import { cell, terraform, tiger } from "./anchors";
import { type Report, secs } from "./report";

const T = 30_000;
const at = (r: LoggedRequest): number => Date.parse(r.at);

/** Adds the convergence rows. */
export async function convergence(report: Report): Promise<void> {
  const scale = T / 7_000; // nominal create: 2 s QUEUED + 5 s CONFIGURING
  const emu = await startEmulatorProcess({ clockScale: scale });
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-priors-"));
  // A stack a run: the later run's provider finds what the first measured in the journal's directory, not in its state.
  const stacks: TestStack[] = [];
  const newStack = async () => {
    const stack = await TestStack.create({
      config: defaultConfig(emu),
      secretKeys: ["clouddb:apiKey"],
      env: { CLOUDDB_JOURNAL_DIR: journal },
    });
    stacks.push(stack);
    return stack;
  };
  try {
    // Warm-up: the harness's first program run loads Pulumi's runtime in this process.
    const warm = await newStack();
    expectNoErrors(await warm.up(() => void new clouddb.Vpc("warm", { name: "warm", cidr: "10.0.0.0/16", regionCode: "us-east-1" })));

    const program = () => ({ id: new clouddb.Service("db", { name: "bench-convergence" }).serviceId });
    const S = "convergence, one service, T = 30 s";
    for (const run of ["first run (no prior)", "later run (prior)"] as const) {
      const stack = await newStack();
      await emu.clearRequests();
      const started = Date.now();
      expectNoErrors(await stack.up(program));
      const wall = Date.now() - started;
      const log = await emu.requests();
      const post = log.findIndex((x) => x.method === "POST" && /\/services$/.test(x.path));
      if (post < 0) throw new Error("no create request in the log");
      const polls = log.slice(post + 1).filter((x) => x.method === "GET");
      const seen = at(log[log.length - 1]) - at(log[post]);
      const late = seen - T;
      const writes = log.filter((x) => x.method !== "GET").length;
      report.raw[`convergence ${run}`] = { T, scale, wallMs: wall, postToLastMs: seen, requests: log };
      const allowed = Math.max(1_000, 0.05 * T);
      report.row(S, `${run}: create POST to the read that saw READY; polls`, `T + ${secs(late)}; ${polls.length} polls`, {
        terraform: cell(terraform(T)),
        tiger: cell(tiger(T)),
        target: `<= T + ${secs(allowed)}; <= 30 polls`,
        pass: late <= allowed && polls.length <= 30,
      });
      report.row(S, `${run}: \`up\` wall time; writes`, `${(wall / T).toFixed(3)} T; ${writes}`, { target: "1 write", pass: writes === 1 });
    }

    await emu.clearRequests();
    expectNoErrors(await stacks[stacks.length - 1].up(program));
    const noop = await emu.requests();
    report.row(S, "no-op `up`: writes (all requests)", `${noop.filter((x) => x.method !== "GET").length} (${noop.length})`, {
      target: "0 writes",
      pass: noop.every((x) => x.method === "GET"),
    });
  } finally {
    for (const stack of stacks) await stack.close();
    await emu.close();
    fs.rmSync(journal, { recursive: true, force: true });
  }
}
