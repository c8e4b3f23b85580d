/**
 * N services created at once against an API that accepts 10 requests a second (a sliding
 * one-second window, the emulator's rate limit), T = 10 s, in this tree and in the
 * baseline: the answers that were 429, the requests beyond the writes, and the time from
 * the first request to the last against the earliest the last service can be seen ready
 * (its write cannot be accepted before N / limit, and it is ready T later).
 */
import * as fs from "fs";
import { type EmulatorProcess, startEmulatorProcess } from "../harness/emulatorProcess";
import { around, terraform, tiger } from "./anchors";
import { atLeast, benchStack, measure, PluginCpu, traffic } from "./measure";
import { count, type Report, secs } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

const LIMIT = 10;
const T = 10_000;
const NOMINAL_MS = 7_000;

async function runOnce(tree: Tree, n: number, emu: EmulatorProcess, cpu: PluginCpu) {
  const { stack, journal } = await benchStack(tree, n, emu, cpu);
  const sdk = tree.sdk();
  try {
    // Loads the SDK and the runtime before the limit is on.
    await stack.up(() => void new sdk.Vpc("warm", { name: "warm", cidr: "10.0.0.0/16", regionCode: "us-east-1" }));
    await emu.control("POST", "/rate-limit", { requestsPerSecond: LIMIT });
    const cost = await measure(stack, emu, cpu, () =>
      stack.up(() => {
        new sdk.Vpc("warm", { name: "warm", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
        for (let i = 0; i < n; i++) new sdk.Service(`svc-${i}`, { name: `bench-${i}` });
      }),
    );
    return { errors: cost.errors, wallMs: cost.wallMs, ...traffic(cost.log) };
  } finally {
    await stack.close();
    await emu.control("POST", "/reset");
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** Adds the rows of N creates against a rate limit. */
export async function rateLimited(report: Report, current: Tree, baseline: Tree, sizes: Sizes): Promise<void> {
  const NS = sizes.rateLimited;
  const emu = await startEmulatorProcess({ clockScale: T / NOMINAL_MS });
  const cpu = new PluginCpu();
  const runs: Record<number, { now: Awaited<ReturnType<typeof runOnce>>; base: Awaited<ReturnType<typeof runOnce>> }> = {};
  try {
    for (const [i, n] of NS.entries()) {
      const first = i % 2 === 0 ? current : baseline;
      const a = await runOnce(first, n, emu, cpu);
      const b = await runOnce(first === current ? baseline : current, n, emu, cpu);
      runs[n] = first === current ? { now: a, base: b } : { now: b, base: a };
    }
  } finally {
    cpu.close();
    await emu.close();
  }
  report.raw.rateLimited = runs;
  const S = `2 creates at once, API limit ${LIMIT} requests/s, T = 10 s`;
  // The figures are those of 200 creates: other sizes are shown, not judged.
  const last = 200;
  for (const n of NS) {
    const { now, base } = runs[n];
    const share = (r: typeof now) =>
      `${r.limited} of ${r.limited + r.accepted} = ${((r.limited / (r.limited + r.accepted)) * 100).toFixed(1)} %${r.complete ? "" : " (of the last ones the emulator kept)"}`;
    report.row(S, "answers that were 429", share(now), {
      size: `N = ${count(n)}`,
      baseline: share(base),
      ...(n === last ? { target: "<= 1 %", pass: now.complete && now.share429 <= 0.01 } : {}),
    });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    const beyond = (r: typeof now) => (r.accepted - r.writes) / n;
    report.row(S, "accepted requests per service beyond its write", atLeast(now, beyond(now).toFixed(2)), {
      size: `N = ${count(n)}`,
      baseline: atLeast(base, beyond(base).toFixed(2)),
      terraform: String(around(T, terraform).polls),
      tiger: `${around(T, tiger).polls} (${n} polls/s asked of a ${LIMIT}/s limit)`,
      ...(n === last ? { target: "<= 1.1", pass: now.complete && beyond(now) <= 1.1 } : {}),
    });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    // The earliest the last service can be seen ready: its write accepted at the limit's pace, then T.
    const earliest = (n / LIMIT) * 1000 + T;
    const cell = (r: typeof now) => atLeast(r, `${secs(r.apiWallMs)} / ${secs(earliest)} = ${(r.apiWallMs / earliest).toFixed(2)}`);
    const tf = earliest + around(T, terraform).delayMs;
    report.row(S, "first to last request / the earliest the last service can be ready", cell(now), {
      size: `N = ${count(n)}`,
      baseline: cell(base),
      terraform: (tf / earliest).toFixed(2),
      ...(n === last ? { target: "<= 1.08", pass: now.complete && now.apiWallMs <= 1.08 * earliest } : {}),
    });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    report.row(S, "errors, `up` wall time", `${now.errors}, ${secs(now.wallMs)}`, {
      size: `N = ${count(n)}`,
      baseline: `${base.errors}, ${secs(base.wallMs)}`,
      target: "0 errors",
      pass: now.errors === 0,
    });
  }
}
