/**
 * Tolerant reading never invents a value. The client reads what has its documented shape, or
 * an unambiguous alternative of it (a number sent as the string `"1000"`), and reads any
 * other shape as absent (contract/api/reading.ts). An absent size is not the shared plan, an
 * absent HA count is not 0 and an absent port is not 0: the outputs that depend on a field
 * the answer does not show readably keep the values recorded in state, the user is told
 * which (a warning on stderr, which Pulumi prints), and nothing is sent because of them
 * (the actions compare only what was read).
 */
import type { Props } from "./schema";

/** A field of a live resource, the outputs read from it, and whether an answer shows it readably. */
export interface ShownField<L> {
  /** The field in the API's terms, for the warning (`resources[0].spec`). */
  readonly field: string;
  /** The outputs read from it. */
  readonly outputs: readonly string[];
  /** True when `live` shows it in a shape the client could read. */
  readonly shows: (live: L) => boolean;
}

/** The outputs that `live` does not show readably, by the `fields` of its type. */
export function unreadableOutputs<L>(live: L, fields: readonly ShownField<L>[]): Set<string> {
  return new Set(fields.filter((f) => !f.shows(live)).flatMap((f) => f.outputs));
}

/**
 * `outs` (read from `live`) with every output of a field `live` does not show readably
 * taken from `recorded` instead, where `recorded` has it; says so on stderr, naming
 * `what` (`service abc`) and the fields. Outputs with nothing recorded are left as read.
 */
export function keepingRecorded<L, O extends object>(
  what: string,
  live: L,
  outs: O,
  recorded: Partial<O>,
  fields: readonly ShownField<L>[],
): O {
  const was = recorded as Props;
  const kept = fields.filter((f) => !f.shows(live) && f.outputs.some((o) => was[o] !== undefined));
  if (kept.length === 0) return outs;
  const result: Props = { ...(outs as Props) };
  for (const f of kept) for (const o of f.outputs) if (was[o] !== undefined) result[o] = was[o];
  console.error(
    `warning: clouddb: ${what}: the API's answer does not show ${kept.map((f) => `\`${f.field}\``).join(", ")} in a shape the provider can read; ` +
      `keeping ${kept.flatMap((f) => f.outputs.filter((o) => was[o] !== undefined)).join(", ")} as recorded (nothing is changed because of it)`,
  );
  // The same keys as `outs`, each value one recorded for it.
  return result as O;
}
