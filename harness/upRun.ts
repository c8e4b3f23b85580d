/**
 * One `up` or `preview` on a {@link Deployment} (the engine run TestStack started): the
 * engine dying when the test says so, `up --refresh`'s refresh first, the pending-operations
 * warning, the program run, and the deletes at its end; what it reports as the CLI would.
 */
import { pendingOperationsWarning } from "./diagnostics";
import type { Deployment } from "./deployment";
import { message } from "./engineRun";
import { HarnessMonitor } from "./monitor";
import { refreshAll } from "./refresh";
import { runProgram } from "./runtime";
import type { Program } from "./stack";
import type { HarnessState } from "./state";
import type { UpOptions, UpResult } from "./types";

/** What the run is and runs in. */
export interface UpRunContext {
  readonly preview: boolean;
  readonly options: UpOptions;
  /** The stack config the program reads. */
  readonly config: Record<string, string>;
  readonly project: string;
  readonly stack: string;
}

/** Runs `program` on `d`, writing into `state` (a copy for a preview); never throws. */
export async function upRun(d: Deployment, state: HarnessState, program: Program, ctx: UpRunContext): Promise<UpResult> {
  const { preview, options } = ctx;
  const dies = options.engineDies;
  const onAbort = (): void => d.die();
  if (dies?.aborted) onAbort();
  dies?.addEventListener("abort", onAbort);
  const result = (): UpResult => ({
    steps: d.steps,
    outputs: structuredClone(state.stackOutputs),
    errors: d.errors,
    checkFailures: d.checkFailures,
    secretOutputNames: [...state.stackSecretOutputs],
    diagnostics: d.sink.lines,
    ...(d.dead ? { interrupted: true } : {}),
  });
  try {
    if (options.refresh) {
      // `up --refresh`: the refresh runs first; any failed read stops the run before the program.
      if (!(await refreshAll(d))) return result();
    } else if (!preview && state.pendingOperations.length > 0) {
      d.sink.add("warning", pendingOperationsWarning(state.pendingOperations.map((p) => p.urn)));
    }
    const monitor = new HarnessMonitor(d);
    const programErrors = await runProgram(program, monitor, {
      project: ctx.project,
      stack: ctx.stack,
      preview,
      config: ctx.config,
      log: (severity, text) => d.sink.add(severity, text),
    });
    if (!d.dead) for (const m of programErrors) d.errors.push({ message: m });
    // A program that fails fails the run: the engine deletes nothing (the language host's error ends it).
    if (programErrors.length > 0) d.bail();
    await d.finish();
    return result();
  } catch (e) {
    d.errors.push({ message: `engine: ${message(e)}` });
    return result();
  } finally {
    dies?.removeEventListener("abort", onAbort);
  }
}
