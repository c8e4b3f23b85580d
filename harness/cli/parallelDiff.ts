/**
 * The engine's diffs in parallel: with `PULUMI_PARALLEL_DIFF=true` in the environment of
 * `pulumi`, `preview` and `up` run each resource's Diff on the engine's step workers, beside the
 * others', where by default its step generator asks one resource after another (README's "How
 * it scales"). No engine event shows which way it went; its step executor's log does, and this
 * reads it, so that a test run with the setting can show the engine took it.
 */

/** The environment that turns the engine's parallel diffs on. */
export const PARALLEL_DIFF: Readonly<Record<string, string>> = { PULUMI_PARALLEL_DIFF: "true" };

/** The arguments that make `pulumi` write its step executor's log (`-v=4`) to standard error. */
export const STEP_LOG_ARGS: readonly string[] = ["-v=4", "--logtostderr"];

/**
 * The names of the resources whose Diff ran on the engine's step workers, sorted, from the
 * standard error of a command run with {@link STEP_LOG_ARGS}: "StepExecutor worker(n): applying
 * step diff on <urn> (preview ...)". None when the engine diffed one resource after another.
 */
export function diffedOnStepWorkers(stderr: string): string[] {
  return [...stderr.matchAll(/applying step diff on \S+::([\w-]+) /g)].map((m) => m[1]).sort();
}
