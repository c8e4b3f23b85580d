/**
 * `pulumi refresh` (and the refresh before `up --refresh`) as the engine runs it (pulumi/pulumi
 * v3.248.0, deployment_executor.go `refresh` L680-844, step.go `RefreshStep.Apply` L1498-1686):
 * every managed resource is read side by side (at most `--parallel`), one failed read does not
 * stop the others; what the read returns replaces the outputs, the inputs when it returned some,
 * and the init errors (the dynamic host never returns any, so a refresh clears them); the step
 * shown is the provider's Diff of the refreshed outputs against the inputs stored before the
 * refresh, inverted.
 */
import { EngineRun, message } from "./engineRun";
import type { ReadResult } from "./providerHost";
import { ReadEntry, StateEntry, withInitErrors } from "./state";
import { ContinuableStepError, StepFn } from "./stepExecutor";

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Refreshes every resource of the state; returns false when a read failed. */
export async function refreshAll(run: EngineRun): Promise<boolean> {
  const chains: StepFn[][] = [
    ...run.state.resources.filter((r) => !r.pendingReplacement).map((r) => [() => refreshOne(run, r)]),
    ...run.state.reads.map((r) => [() => refreshExternal(run, r)]),
  ];
  let ok = true;
  await Promise.all(
    chains.map((c) =>
      run.executor.submit(c).done.catch(() => {
        ok = false;
      }),
    ),
  );
  return ok;
}

/** The Read of one resource; a failed one is reported and does not cancel the others (ExecuteParallel with ignoreErrors). */
async function read(run: EngineRun, r: StateEntry | ReadEntry): Promise<ReadResult> {
  try {
    return await run.rpc(() => run.plugin.read(r.urn, r.id, r.outputs, r.inputs));
  } catch (e) {
    run.error(r.urn, r.name, message(e));
    throw new ContinuableStepError(message(e));
  }
}

async function refreshOne(run: EngineRun, r: StateEntry): Promise<void> {
  const base = { urn: r.urn, name: r.name, type: r.type };
  const res = await read(run, r);
  if (run.dead) return;
  if (!res.id) {
    run.state.remove(r);
    run.step("refresh-delete", base.urn, base.type, base.name);
    return;
  }
  const oldInputs = r.inputs;
  const inputs = res.inputs ?? r.inputs;
  const next: StateEntry = withInitErrors(
    {
      ...structuredClone(r),
      id: res.id,
      inputs,
      outputs: res.properties,
      secretOutputs: r.secretOutputs.filter((k) => k in res.properties),
      secretInputs: r.secretInputs.filter((k) => k in inputs),
    },
    [],
  );
  // The step shown: Diff(olds = refreshed outputs, news = the inputs stored before), inverted (L1640-1671).
  let changed: boolean;
  try {
    const d = await run.rpc(() => run.plugin.diff(r.urn, next.id, next.outputs, oldInputs, next.inputs));
    changed = d.changes === "unknown" ? !same(inputs, oldInputs) : d.changes === "some";
  } catch (e) {
    run.error(r.urn, r.name, `${r.name}: refresh diff: ${message(e)}`);
    throw new ContinuableStepError(message(e));
  }
  if (run.dead) return;
  run.state.replace(r, next);
  run.step(changed ? "refresh-update" : "same", base.urn, base.type, base.name);
}

/** An external resource (`Resource.get`): read again; its step compares outputs only (L1617-1619). */
async function refreshExternal(run: EngineRun, r: ReadEntry): Promise<void> {
  const res = await read(run, r);
  if (run.dead) return;
  if (!res.id) {
    run.state.reads = run.state.reads.filter((x) => x !== r);
    run.step("refresh-delete", r.urn, r.type, r.name);
    return;
  }
  const changed = !same(res.properties, r.outputs);
  r.outputs = res.properties;
  r.secretOutputs = r.secretOutputs.filter((k) => k in res.properties);
  run.step(changed ? "refresh-update" : "same", r.urn, r.type, r.name);
}
