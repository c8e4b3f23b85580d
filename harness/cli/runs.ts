/**
 * One run of the real CLI as a {@link CliStack} sees it: the engine events it gave and what
 * it printed (read in the harness's terms by events.ts), and the inline program's unhandled
 * rejections kept from the test that ran it.
 */
import type * as Auto from "@pulumi/pulumi/automation";
import * as vm from "vm";
import { reportOf } from "./events";

/** The process of the outermost context (jest runs a test file in a vm context with a copy of `process`). */
const realProcess = vm.runInThisContext("process") as NodeJS.Process;

/**
 * Runs `op` (an inline program under the CLI) with the process's unhandled rejections its own,
 * kept in `run.rejections`: a program whose registrations the engine stopped leaves the SDK's
 * promises rejected ("resource monitor shut down"), which a language host only logs as the
 * program ends, and which must not fail the test that ran it. (The Automation API's own handler
 * never sees them: jest gives each test file a copy of `process`.) They are looked for until
 * two turns of the event loop after `op` brought none.
 */
export async function ownRejections<T>(op: () => Promise<T>, run: RunCapture): Promise<T> {
  const saved = realProcess.listeners("unhandledRejection");
  realProcess.removeAllListeners("unhandledRejection");
  const seen = (): number => run.rejections?.length ?? 0;
  realProcess.on("unhandledRejection", (reason: unknown) => {
    (run.rejections ??= []).push(reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
  });
  try {
    return await op();
  } finally {
    for (let before = -1; before !== seen();) {
      before = seen();
      for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
    }
    realProcess.removeAllListeners("unhandledRejection");
    for (const l of saved) realProcess.on("unhandledRejection", l as (...args: unknown[]) => void);
  }
}

/** What one run of the CLI gave: its engine events, and what it printed. */
export interface RunCapture {
  events: Auto.EngineEvent[];
  output: string;
  /** The command exited with an error. */
  failed?: boolean;
  /** The harness killed the CLI during the run (an `engineDies` signal): its events end where it died. */
  killed?: boolean;
  /** The inline program's promises rejected with no handler during the run, each its error's stack (see {@link ownRejections}). */
  rejections?: string[];
  /** For an `up` or `preview`: whether the inline program was called (programRuntime.ts `runProgramRuntime`). */
  programStarted?: boolean;
}

/** The run's rejected promises ({@link RunCapture.rejections}), each its stack, one after another; empty when none. */
function rejectedStacks(run: RunCapture): string {
  return (run.rejections ?? []).join("\n");
}

/** The run's rejected promises as the end of a sentence naming them, or nothing. */
function rejections(run: RunCapture): string {
  return (run.rejections ?? []).length === 0 ? "." : `; rejected with no handler meanwhile:\n${rejectedStacks(run)}`;
}

/** A new {@link RunCapture}. */
export function capture(): RunCapture {
  return { events: [], output: "" };
}

/**
 * The run's report: its events read as the harness reads a run, and what the CLI printed
 * (progress, summaries, warnings) as one more line, so that a scan of everything a run
 * printed (`printed`) covers what a user sees.
 */
export function report(run: RunCapture, refresh = false): ReturnType<typeof reportOf> {
  const r = reportOf(run.events, refresh);
  const printed = run.output.trim();
  // A command that failed before the engine ran (a locked stack, a bad flag) has no events: its output is the error.
  if (run.failed && r.errors.length === 0 && r.checkFailures.length === 0) r.errors.push({ message: printed });
  // The engine's last event is its cancel event, sent however its operation ended (pkg/engine update.go, refresh.go,
  // destroy.go, import.go defer it). A run the engine ran (a command that succeeded, or failed after events came) and
  // the harness did not kill, without it, reached the harness in part: a test reading it would judge a run it did not see whole.
  const ran = !run.failed || run.events.length > 0;
  if (ran && run.killed !== true && !run.events.some((e) => e.cancelEvent !== undefined))
    r.errors.push({
      message:
        `harness: the engine's events stop short of its last one (${run.events.length} received, the command ` +
        `${run.failed ? "failed" : "succeeded"}): what it reported is incomplete. It printed: ${printed}`,
    });
  // A program the runtime never called (its registration of the stack failed first) declared nothing: the engine, told
  // so, deleted what the stack held and said all went well. Never a success here (programRuntime.ts says when it happens).
  if (!run.failed && run.programStarted === false)
    r.errors.push({
      message:
        "harness: the command succeeded but the inline program never ran (the Pulumi runtime failed before it, so the " +
        `engine took it for a program that declares nothing)${rejections(run)}`,
    });
  // Rejected promises after a command that succeeded: a failure the engine never saw, or what an earlier run left
  // rejecting late (a call to its engine, gone since), which nothing here tells apart. Not an error of this run, then,
  // but said with the stack of each, so that a test failing beside it can be read.
  if (!run.failed && run.programStarted !== false && (run.rejections ?? []).length > 0)
    console.warn(
      `harness: the command succeeded while ${run.rejections?.length} promise(s) of the program, or of an earlier run's, ` +
        `were rejected with no handler; the engine never saw them:\n${rejectedStacks(run)}`,
    );
  if (printed !== "") r.diagnostics.push({ severity: "info", message: `[cli output] ${printed}` });
  return r;
}
