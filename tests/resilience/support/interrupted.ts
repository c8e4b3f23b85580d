/**
 * An `up` interrupted while its create was under way, as a crash would end it: the API carries
 * the create out and its answer is held back (sent a byte every few seconds), and the plugin
 * process is killed once the API's log shows that POST (the API acted; the journal's entry
 * holds no id). Through the real plugin host (`startCloud({ host: "plugin" })`).
 *
 * The kill waits on what the API logged, not on a fixed time: however loaded the machine, the
 * POST has been carried out and its answer has not reached the plugin when it dies.
 */
import { until, type Program } from "../../../harness";
import type { EmulatorControl } from "../../../emulator/control-client";
import type { Cloud } from "../../../harness/cloud";
import type { UpResult } from "../../../harness/types";

/** The answer to a held create: one byte every this many ms, far longer than a test waits. */
const HELD_ANSWER_BYTE_MS = 10_000;

/**
 * Holds back the answer of the next POST whose path matches `pathRe` (carried out first), and
 * returns what resolves once the API's log shows that POST (within `timeoutMs`, `until`'s default
 * when absent). The request log must not already hold one; the caller clears the rule after.
 */
export async function holdCreateAnswer(control: EmulatorControl, pathRe: RegExp, timeoutMs?: number): Promise<() => Promise<void>> {
  await control.fault({ method: "POST", path: pathRe.source, trickleMs: HELD_ANSWER_BYTE_MS });
  return async () => {
    await until(
      "the create carried out, its answer held back",
      async () => ((await control.requests()).some((r) => r.method === "POST" && pathRe.test(r.path)) ? true : undefined),
      timeoutMs,
    );
  };
}

/** Runs `program`'s `up` on `cloud`, interrupted as the module says; resolves with that `up`'s result once the plugin is gone. */
export async function interruptedUp(cloud: Cloud, program: Program, pathRe: RegExp): Promise<UpResult> {
  await cloud.clearRequests();
  const carriedOut = await holdCreateAnswer(cloud.controls, pathRe);
  const running = cloud.stack.up(program);
  await carriedOut();
  await cloud.stack.plugin.kill();
  const result = await running;
  await cloud.control("DELETE", "/faults");
  return result;
}
