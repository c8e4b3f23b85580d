import type { DiffResult } from "@pulumi/pulumi/dynamic";
import { containsUnknown } from "./unknowns";

/** One property compared by `diff`, and whether a change to it replaces the resource. */
export interface DiffKey {
  /** Output property name, the same as the input's. */
  readonly property: string;
  /** A change cannot be applied in place: the resource is replaced. */
  readonly replace: boolean;
}

/** A {@link DiffResult} that also lists the properties that differ. */
export interface PropertyDiff extends DiffResult {
  /** Properties whose desired value differs from the recorded one, or is unknown. */
  readonly changed: string[];
}

/** Deep equality of JSON-like values, ignoring key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * Compares the desired values (inputs with defaults filled in) with the recorded
 * outputs, property by property. An unknown desired value counts as a change, and as a
 * replacement for a replace-only property. `changes` is `false` when nothing differs.
 */
export function diffProperties(
  recorded: Record<string, unknown>,
  desired: Record<string, unknown>,
  keys: readonly DiffKey[],
): PropertyDiff {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const { property, replace } of keys) {
    const want = desired[property];
    if (containsUnknown(want) || !sameValue(recorded[property] ?? null, want ?? null)) {
      changed.push(property);
      if (replace) replaces.push(property);
    }
  }
  return { changes: changed.length > 0, replaces, changed };
}

/**
 * The properties of `changed` whose recorded value the property's rule of a readable value
 * (`readable`, contract/readable.ts) refuses: recorded from an answer an earlier version could
 * not read (`""` for a region, say). Such a value is no reason to replace the resource, and
 * not a change to name: `diff` asks for an update instead, which reads the resource and
 * records what it shows (framework/unreadable.ts).
 */
export function unreadablyRecorded(
  recorded: Record<string, unknown>,
  changed: readonly string[],
  readable: Readonly<Record<string, (value: unknown) => boolean>> = {},
): string[] {
  return changed.filter((p) => p in recorded && readable[p] !== undefined && !readable[p](recorded[p]));
}
