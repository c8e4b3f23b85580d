/**
 * Tolerant reading never invents a value. The client reads what has its documented shape, or
 * an unambiguous alternative of it (a number sent as the string `"1000"` or `"1e3"`), and
 * reads any other shape as absent (contract/api/reading.ts). And a value of the right type is
 * read only when the contract's rule of its field takes it (contract/readable.ts): `""`, spaces,
 * a region where a service type belongs, an HA count of 3, a size pair no plan has are no
 * values. An absent size is not the shared plan, an absent HA count or port is not 0, an
 * absent or blank name or CIDR is not `""`, and an array where a pooler or a VPC endpoint
 * belongs is neither "off" nor "detached": the outputs that depend on a field the answer does
 * not show readably keep the values recorded in state (for a create, what it sent), the user
 * is told which (a warning to the user, framework/userLog.ts, once per process), and nothing is
 * sent or replaced because of them (the actions compare only what was read; the diff never
 * replaces over a recorded value its rule refuses: resourceProvider.ts). Every kind declares,
 * for every output it reads from the live resource, the field it reads and when an answer
 * shows it readably: each output's `field` with its rule, in its definition (framework/outputs.ts
 * derives the fields; tests/unit/unreadable.test.ts checks every field of every kind).
 */
import { shownFields, type ReadFromFields } from "./outputs";
import type { Props } from "./schema";
import { warnUser } from "./userLog";

/**
 * True when the answer showed `key` in a shape the client could not read: the field was
 * there, but tolerant reading dropped its value (contract/api/reading.ts `tolerant` keeps the
 * key and reads the value as absent). Absent or `null` is not odd: for an optional field
 * (a pooler, a VPC endpoint) that is a value, "none".
 */
export function oddly(live: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(live, key) && (live as Props)[key] === undefined;
}

/** True when `value` is a string (a field the server always fills in with one). */
export const isText = (value: unknown): value is string => typeof value === "string";

/** True when `value` is a finite number. */
export const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

const said = new Set<string>();

/** Warns the user (framework/userLog.ts), once per process: an update reads a resource more than once. */
function say(warning: string): void {
  if (said.has(warning)) return;
  said.add(warning);
  warnUser(warning);
}

/**
 * `outs` (read from `live`) with every output of a field `live` does not show readably
 * taken from `recorded` instead, where `recorded` has it; warns the user once (framework/userLog.ts), naming
 * `what` (`service abc`) and the fields. Outputs with nothing recorded (a lookup, an import)
 * are left as read, and the warning says that too. `recorded` is what state recorded, or, for
 * a create, what the create sent (`as` says which, for the warning).
 */
export function keepingRecorded<L, O extends object>(
  what: string,
  live: L,
  outs: O,
  recorded: Partial<O>,
  schema: ReadFromFields<L>,
  as: "recorded" | "sent" = "recorded",
): O {
  const was = recorded as Props;
  const unshown = shownFields(schema).filter((f) => !f.shows(live));
  if (unshown.length === 0) return outs;
  const result: Props = { ...(outs as Props) };
  const kept = new Set<string>();
  const left = new Set<string>();
  for (const f of unshown) {
    for (const o of f.outputs) {
      if (was[o] !== undefined) {
        result[o] = was[o];
        kept.add(o);
      } else left.add(o);
    }
  }
  const named = [...new Set(unshown.map((f) => `\`${f.field}\``))].join(", ");
  const done = [
    ...(kept.size > 0 ? [`keeping ${[...kept].join(", ")} as ${as} (nothing is changed because of it)`] : []),
    ...(left.size > 0 ? [`${[...left].join(", ")} as the API gave ${left.size === 1 ? "it" : "them"} (nothing is recorded to keep)`] : []),
  ];
  say(`${what}: the API's answer does not show ${named} in a shape the provider can read; ${done.join("; ")}`);
  // The same keys as `outs`, each value one recorded for it or read.
  return result as O;
}
