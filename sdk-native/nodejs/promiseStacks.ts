/**
 * What constructing a resource costs the program. Pulumi's runtime gives every property of
 * a resource four promises, and each takes a stack trace when it is made (`debuggablePromise`
 * in @pulumi/pulumi runtime/debuggable.ts), kept for a report of promises left unresolved
 * that it prints only when `PULUMI_DEBUG_PROMISE_LEAKS` is set. Under ts-node (Pulumi's way
 * of running TypeScript programs) every trace is source-mapped: about 85% of a resource's
 * construction, 2.5 KB of heap a trace, for our 20 to 30 properties.
 *
 * So our constructors register their properties with no trace taken (`Error.stackTraceLimit`
 * 0 while Pulumi's constructor runs, restored after), unless that report is asked for, or a
 * transformation (the program's code) runs inside the constructor. Pulumi's own call-site
 * capture sets the limit itself, so the resource's source position is what it was; an error
 * thrown by the constructor gets the trace of the program's call.
 *
 * The native plugin's TypeScript SDK (generated) carries a copy of this file, which
 * `npm run generate:sdks` puts beside the generated classes (tools/sdk-overlays/nodejs).
 */
import * as pulumi from "@pulumi/pulumi";

/** Whether a resource with these options runs a transformation (program code) in its constructor. */
function runsTransformations(opts: pulumi.CustomResourceOptions): boolean {
  if (opts.transformations !== undefined && opts.transformations.length > 0) return true;
  const parent = (opts.parent ?? pulumi.runtime.getStackResource()) as { __transformations?: readonly unknown[] } | undefined;
  return parent?.__transformations !== undefined && parent.__transformations.length > 0;
}

/**
 * Lowers `Error.stackTraceLimit` to 0 for the construction of a resource with `opts`, when
 * that changes nothing the program can see (see the module comment).
 *
 * @param above - The function whose caller an error's trace starts at (default: where `settle` is called).
 * @returns `settle`: call it once the construction ended, with the error it threw, if any
 * (the error then gets the trace of the call it is given in place of the one it lacks).
 * @internal
 */
export function untracedConstruction(opts: pulumi.CustomResourceOptions, above?: (...args: never[]) => unknown): (error?: unknown) => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS || runsTransformations(opts)) return () => undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const settle = (error?: unknown): void => {
    Error.stackTraceLimit = limit;
    if (error instanceof Error) Error.captureStackTrace(error, above ?? settle);
  };
  return settle;
}
