/**
 * The harness's stack state: managed custom resources (in registration order), resources read
 * with `Resource.get`, components and stack outputs; and the plaintext view a backend would store.
 */
import { JsonObject } from "./protos";
import { redact } from "./secrets";
import { StateResource } from "./types";

/** A managed resource plus what the harness needs internally (secret input keys). */
export interface StateEntry extends StateResource {
  /** Top-level input keys that were secret. */
  secretInputs: string[];
}

/** A resource read with `Resource.get` (not managed: never deleted). */
export interface ReadEntry {
  urn: string;
  type: string;
  name: string;
  id: string;
  outputs: JsonObject;
  secretOutputs: string[];
}

/** A component resource (no provider calls). */
export interface ComponentEntry {
  urn: string;
  type: string;
  name: string;
  outputs: JsonObject;
  secretOutputs: string[];
}

/** The whole state of one test stack. */
export class HarnessState {
  /** Managed custom resources, registration order; may hold a pending-delete entry next to a live one with the same URN. */
  resources: StateEntry[] = [];
  reads: ReadEntry[] = [];
  components: ComponentEntry[] = [];
  stackOutputs: JsonObject = {};
  stackSecretOutputs: string[] = [];

  /** The live (not pending-delete) entry with this URN. */
  live(urn: string): StateEntry | undefined {
    return this.resources.find((r) => r.urn === urn && !r.pendingDelete);
  }

  /** Removes exactly this entry. */
  remove(entry: StateEntry): void {
    this.resources = this.resources.filter((r) => r !== entry);
  }

  /** A deep copy (used by preview, which must not change the state). */
  clone(): HarnessState {
    const s = new HarnessState();
    const copy = <T>(v: T): T => structuredClone(v);
    s.resources = copy(this.resources);
    s.reads = copy(this.reads);
    s.components = copy(this.components);
    s.stackOutputs = copy(this.stackOutputs);
    s.stackSecretOutputs = copy(this.stackSecretOutputs);
    return s;
  }

  /** Public view of the managed resources (copies). */
  publicResources(): StateResource[] {
    return this.resources.map((r) => {
      const { secretInputs: _omit, ...pub } = structuredClone(r);
      void _omit;
      return pub;
    });
  }

  /** The state as JSON with every secret value replaced by "[secret]": what must not leak. */
  plaintext(): string {
    return JSON.stringify(
      {
        resources: this.resources.map((r) => ({
          urn: r.urn,
          type: r.type,
          id: r.id,
          inputs: redact(r.inputs, r.secretInputs),
          outputs: redact(r.outputs, r.secretOutputs),
          dependencies: r.dependencies,
          ...(r.initFailed ? { initFailed: true } : {}),
          ...(r.pendingDelete ? { delete: true } : {}),
          ...(r.protect ? { protect: true } : {}),
        })),
        reads: this.reads.map((r) => ({ urn: r.urn, id: r.id, outputs: redact(r.outputs, r.secretOutputs), external: true })),
        components: this.components.map((c) => ({ urn: c.urn, outputs: redact(c.outputs, c.secretOutputs) })),
        outputs: redact(this.stackOutputs, this.stackSecretOutputs),
      },
      null,
      2,
    );
  }
}

/**
 * Orders `targets` for deletion: dependents before what they depend on; otherwise the most
 * recently registered first (reverse registration order).
 */
export function deletionOrder(all: readonly StateEntry[], targets: readonly StateEntry[]): StateEntry[] {
  const index = new Map<StateEntry, number>();
  all.forEach((r, i) => index.set(r, i));
  const remaining = [...targets].sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0));
  const out: StateEntry[] = [];
  while (remaining.length > 0) {
    let pick = -1;
    for (let i = remaining.length - 1; i >= 0; i--) {
      const cand = remaining[i]!;
      const needed = remaining.some((o) => o !== cand && o.dependencies.includes(cand.urn));
      if (!needed) {
        pick = i;
        break;
      }
    }
    if (pick < 0) pick = remaining.length - 1; // a cycle: fall back to reverse order
    out.push(remaining.splice(pick, 1)[0]!);
  }
  return out;
}
