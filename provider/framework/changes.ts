/**
 * What an update asks for: the desired value of each property that changed between what state
 * recorded and the new inputs (as the engine hands them over, after `ignoreChanges`), and for
 * every other property what the live resource has, so that an update never sends what did not
 * change, whatever drift the live resource shows. Drift is Pulumi's to manage: a refresh records
 * it, the next `up` converges it unless `ignoreChanges` leaves it alone.
 */
import type { DesiredOf, InputSpecs, Props } from "./schema";

/**
 * `desired` where a property changed, else the live value (`live`: the live resource's outputs;
 * a property it has no output for keeps `recorded`'s value; absent is `null`).
 */
export function wantedNow<I extends InputSpecs>(
  desired: DesiredOf<I>,
  live: Props,
  recorded: Props,
  changed: ReadonlySet<string>,
): DesiredOf<I> {
  const entries = Object.entries(desired).map(([property, value]) => {
    if (changed.has(property)) return [property, value];
    const now = property in live ? live[property] : recorded[property];
    return [property, now ?? null];
  });
  return Object.fromEntries(entries) as DesiredOf<I>;
}

/**
 * The outputs an update records: `outs` as read from the resource, except that every diffed
 * property the update did not change keeps its recorded value. Drift in those is Pulumi's to
 * record (a refresh, which also records it in the inputs so that `ignoreChanges` keeps it);
 * an update that took it into the outputs alone would make the next `up` repair it,
 * `ignoreChanges` or not.
 */
export function recordedUnlessChanged(outs: Props, recorded: Props, diffed: readonly string[], changed: ReadonlySet<string>): Props {
  const kept = diffed.filter((p) => !changed.has(p) && p in recorded).map((p): [string, unknown] => [p, recorded[p]]);
  return { ...outs, ...Object.fromEntries<unknown>(kept) };
}
