/**
 * The deletes at the end of an `up` and in `destroy`, as the engine runs them (pulumi/pulumi
 * v3.248.0): which resources are condemned (step_generator.go `GenerateDeletes` L2159-2354),
 * how they are layered into waves (`ScheduleDeletes` L2560-2611), and what one delete does
 * (step.go `DeleteStep.Apply` L596-700).
 */
import { protectedDeleteMessage } from "./diagnostics";
import { EngineRun, message } from "./engineRun";
import { StateEntry } from "./state";
import { ContinuableStepError, StepFn } from "./stepExecutor";

/** A resource to delete, and whether it is the old half of a replacement (no protect check then). */
export interface Condemned {
  entry: StateEntry;
  replacing: boolean;
}

/** Every URN `r` depends on: dependencies and property dependencies (the graph's edges, graph.go L201-255). */
export function dependenciesOf(r: StateEntry): Set<string> {
  return new Set([...r.dependencies, ...Object.values(r.propertyDependencies).flat()]);
}

/**
 * Layers `condemned` into waves: repeatedly take those with no condemned dependency (the
 * bottom), then reverse, so dependents go first. For C→B→A and D→A: `[C]`, `[B, D]`, `[A]`.
 */
export function deleteWaves(condemned: readonly Condemned[]): Condemned[][] {
  const left = new Map(condemned.map((c) => [c.entry, c]));
  const layers: Condemned[][] = [];
  while (left.size > 0) {
    const urns = new Set([...left.keys()].map((e) => e.urn));
    let layer = [...left.values()].filter((c) => ![...dependenciesOf(c.entry)].some((u) => u !== c.entry.urn && urns.has(u)));
    if (layer.length === 0) layer = [...left.values()]; // a cycle: take the rest together
    for (const c of layer) left.delete(c.entry);
    layers.push(layer);
  }
  return layers.reverse();
}

/** Every URN that `urn` depends on, transitively, within `all`. */
function transitiveDependencies(urn: string, all: readonly StateEntry[]): Set<string> {
  const byUrn = new Map(all.map((r) => [r.urn, r]));
  const out = new Set<string>();
  const walk = (u: string): void => {
    const r = byUrn.get(u);
    if (!r) return;
    for (const d of dependenciesOf(r)) {
      if (!out.has(d)) {
        out.add(d);
        walk(d);
      }
    }
  };
  walk(urn);
  return out;
}

/**
 * Deletes `condemned` wave by wave, each wave's deletes side by side (at most `--parallel`)
 * and finished before the next (deployment_executor.go L548-550). A failed delete stops the
 * waves; a protected one does not, but what it depends on is left alone (L513-545).
 */
export async function runDeletes(run: EngineRun, condemned: readonly Condemned[]): Promise<void> {
  const spared = new Set<string>();
  for (const wave of deleteWaves(condemned)) {
    if (run.executor.cancelled) return;
    const chains: StepFn[][] = wave
      .filter((c) => !spared.has(c.entry.urn))
      .map((c) => [
        async () => {
          try {
            await deleteOne(run, c);
          } catch (e) {
            if (e instanceof ContinuableStepError) {
              for (const u of transitiveDependencies(c.entry.urn, run.state.resources)) spared.add(u);
            }
            throw e;
          }
        },
      ]);
    await run.executor.executeParallel(chains).catch(() => undefined);
  }
}

/**
 * One delete (DeleteStep.Apply): a protected resource is refused unless it is a replaced old
 * half (checked first, in preview too); preview sends nothing; `retainOnDelete` sends nothing;
 * otherwise Delete(id, outputs, inputs). Either way the resource leaves the state, unless
 * the Delete failed.
 */
export async function deleteOne(run: EngineRun, { entry: r, replacing }: Condemned): Promise<void> {
  if (!replacing && r.protect) {
    const msg = protectedDeleteMessage(r.urn);
    run.error(r.urn, r.name, msg);
    throw new ContinuableStepError(msg);
  }
  if (!run.preview && !r.retainOnDelete) {
    try {
      await run.rpc(() => run.plugin.delete(r.urn, r.id, r.outputs, r.inputs));
    } catch (e) {
      run.error(r.urn, r.name, message(e));
      throw e;
    }
  }
  if (run.dead) return;
  if (!run.preview) run.state.remove(r);
  run.step(replacing ? "delete-replaced" : "delete", r.urn, r.type, r.name);
}
