/**
 * What an output declares of the live resource it is read from, and what is derived from
 * that: the field it reads (a wire name of the contract's answer, checked by `tsc`) and when
 * an answer shows that field readably (the contract's rule, contract/readable.ts). From the
 * outputs' declarations come the fields a read checks ({@link shownFields}: the warnings and
 * the recorded values kept, framework/unreadable.ts), the rules `diff` applies to a recorded
 * value ({@link readableRules}), what an adoption compares ({@link fixedProperties}) and whether
 * an answer shows an output's field readably to the actions and checks that judge by it
 * ({@link showsReadably}); no kind lists its fields by hand, and none restates a field's rule.
 * And the copy of outputs Pulumi's hosts take ({@link withoutUndefined}).
 */

/** The keys a type names, without those of an index signature (a loose object's `[k: string]: unknown`). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown } & string;

/**
 * The wire names of a live resource's fields, as the contract's answer schema has them: `name`,
 * and one level into an object, `connection_pooler.endpoint`. A misspelled one does not compile.
 */
export type FieldPath<L> = {
  [K in NamedKeys<L>]:
    | K
    | (NonNullable<L[K]> extends readonly unknown[]
        ? never
        : NonNullable<L[K]> extends object
          ? `${K}.${NamedKeys<NonNullable<L[K]>>}`
          : never);
}[NamedKeys<L>];

/** The live resource an output source holds (`Src["live"]`); `unknown` for a source without one (the project alone), which names no field. */
export type LiveOf<Src> = Src extends { readonly live: infer L } ? L : unknown;

/**
 * Where an output is read from, as its declaration gives it (the options of
 * `outputsReadFrom`'s builder): nothing, for an output not read from the live resource `L`
 * (its id, which the client relies on, the project, a kept input); else its `field`, with
 * either the contract's rule of that field's value (`readable`: for an output that records
 * the value as it is, `regionCode` of `region_code`), or, when the rule needs more than the
 * value (a pair of sizes, the presence of a key, an output computed from the field), the
 * answer's (`shows`). Outputs read from one field by one rule say so with the same rule: a
 * warning names the field once.
 */
export type ReadOptions<L> =
  | { readonly field?: never; readonly readable?: never; readonly shows?: never }
  | { readonly field: FieldPath<L>; readonly readable: (value: unknown) => boolean; readonly shows?: never }
  | { readonly field: FieldPath<L>; readonly shows: (live: L) => boolean; readonly readable?: never };

/** Where an output is read from in the live resource `L`, as an output spec holds it ({@link readOf}). */
export interface FieldRead<L> {
  /** The field in the API's terms (`region_code`, `connection_pooler.endpoint`), checked against the contract when declared. */
  readonly field: string;
  /** The rule of the field's value, when the output records that value as it is: also the rule of a recorded value. */
  readonly readable?: (value: unknown) => boolean;
  /** True when `live` shows the field in a shape the client could read. */
  readonly shows: (live: L) => boolean;
  /** The rule as declared (`readable` or `shows`): outputs of one field and one rule share a warning. */
  readonly rule: unknown;
}

/** The value at `field` (`metadata.environment`) of `live`; undefined where a step is missing. */
function valueAt(live: unknown, field: string): unknown {
  return field
    .split(".")
    .reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), live);
}

/**
 * The read options of an output that records a field of the live resource `L` as it is, made
 * by {@link recordedFields}: the field, the contract's rule of its value, and `from` reading it.
 */
export interface RecordedField<L> {
  /** The options of an output that records field `field` as it is, `orElse` where the answer has none. */
  <P extends NamedKeys<L>>(
    field: P,
    readable: (value: unknown) => boolean,
    orElse: NonNullable<L[P]>,
  ): {
    readonly field: P;
    readonly readable: (value: unknown) => boolean;
    readonly from: (source: { readonly live: L }) => NonNullable<L[P]>;
  };
  /** The same for a field the contract's answer always has (its type says so: `tsc` refuses one that may be absent where the output may not). */
  <P extends NamedKeys<L>>(
    field: P,
    readable: (value: unknown) => boolean,
  ): { readonly field: P; readonly readable: (value: unknown) => boolean; readonly from: (source: { readonly live: L }) => L[P] };
}

/**
 * The maker of the read options of outputs that record a top-level field of the live resource
 * `L` as it is, so that its wire name is written once: `const recorded = recordedFields<Vpc>()`,
 * then `output(z.string(), { doc, ...recorded("region_code", readableRegion, "") })`. The field
 * is checked against the contract's answer type, and its value's type against the output's.
 */
export function recordedFields<L>(): RecordedField<L> {
  return (<P extends NamedKeys<L>>(field: P, readable: (value: unknown) => boolean, ...orElse: [] | [NonNullable<L[P]>]) => ({
    field,
    readable,
    from: (source: { readonly live: L }) => (orElse.length === 0 ? source.live[field] : (source.live[field] ?? orElse[0])),
  })) as RecordedField<L>;
}

/** What an output spec holds of its declared {@link ReadOptions}: undefined for an output not read from a field. */
export function readOf<L>(options: ReadOptions<L>): FieldRead<L> | undefined {
  const { field, readable, shows } = options;
  if (field === undefined) return undefined;
  if (readable !== undefined) return { field, readable, shows: (live) => readable(valueAt(live, field)), rule: readable };
  // A field without a rule does not compile.
  return shows === undefined ? undefined : { field, shows, rule: shows };
}

/** A field of a live resource, the outputs read from it by one rule, and whether an answer shows it readably. */
export interface ShownField<L> {
  /** The field in the API's terms, for the warning (`resources`, `connection_pooler.endpoint`): a wire name of the contract's answer. */
  readonly field: string;
  /** The outputs read from it. */
  readonly outputs: readonly string[];
  /** True when `live` shows it in a shape the client could read. */
  readonly shows: (live: L) => boolean;
}

/** What {@link shownFields} reads of a schema: its outputs, each maybe read from a field of `L`. */
export interface ReadFromFields<L> {
  readonly outputs: Readonly<Record<string, { readonly read?: FieldRead<L> }>>;
}

const derived = new WeakMap<object, readonly ShownField<never>[]>();

/**
 * The fields `schema`'s outputs are read from, in the order of the outputs, each with the
 * outputs read from it by one rule (`resources` gives `cpuMillis`, `memoryGbs` and
 * `resources`; `status` read by two rules is two fields). Derived once per set of outputs.
 */
export function shownFields<L>(schema: ReadFromFields<L>): readonly ShownField<L>[] {
  const known = derived.get(schema.outputs) as readonly ShownField<L>[] | undefined;
  if (known !== undefined) return known;
  const groups: Array<ShownField<L> & { readonly rule: unknown; readonly outputs: string[] }> = [];
  for (const [output, { read }] of Object.entries(schema.outputs)) {
    if (read === undefined) continue;
    const same = groups.find((g) => g.field === read.field && g.rule === read.rule);
    if (same !== undefined) same.outputs.push(output);
    else groups.push({ field: read.field, outputs: [output], shows: read.shows, rule: read.rule });
  }
  const fields = groups.map(({ field, outputs, shows }) => ({ field, outputs, shows }));
  derived.set(schema.outputs, fields);
  return fields;
}

/**
 * True when the answer `live` shows readably the field that `schema`'s output `output` is
 * read from, by that output's declared read (its `readable` rule of the field's value, or its
 * `shows`): an action or check that judges by a field asks the output that declares it, and
 * restates no rule (`showsReadably(vpcSchema, live, "regionCode")`). True for an output not
 * read from a field. A name that is not one of `schema`'s outputs does not compile.
 */
export function showsReadably<L, O extends ReadFromFields<L>["outputs"]>(
  schema: { readonly outputs: O },
  live: L,
  output: keyof O & string,
): boolean {
  return schema.outputs[output]?.read?.shows(live) ?? true;
}

/** What {@link readableRules} and {@link fixedProperties} read of a schema: which inputs replace, and what the outputs read. */
export interface ReplacingReads {
  readonly inputs: Readonly<Record<string, { readonly change: string }>>;
  readonly outputs: Readonly<
    Record<string, { readonly read?: { readonly field: string; readonly readable?: (value: unknown) => boolean } }>
  >;
}

/**
 * A property that cannot change in place (framework/adoption.ts `assertAdoptable`): what the
 * program asks for, what exists, and whether the answer showed it readably
 * (contract/readable.ts; true when not said).
 */
export type FixedProperty = readonly [property: string, wanted: unknown, found: unknown, readable?: boolean];

/** Each property whose change replaces the resource and whose output records a field's value as it is (its declared `readable`): the field and the rule. */
function replacingReads(schema: ReplacingReads): Array<readonly [property: string, field: string, readable: (value: unknown) => boolean]> {
  return Object.entries(schema.outputs).flatMap(([key, { read }]) =>
    read?.readable !== undefined && schema.inputs[key]?.change === "replace" ? [[key, read.field, read.readable] as const] : [],
  );
}

/**
 * The rule of a readable value of each property whose change replaces the resource and whose
 * output records a field's value as it is (its declared `readable`): a recorded value the rule
 * refuses was recorded from an answer that did not show it readably, and is no reason to
 * replace (`diff` asks for an update, framework/core.ts).
 */
export function readableRules(schema: ReplacingReads): Readonly<Record<string, (value: unknown) => boolean>> {
  return Object.fromEntries(replacingReads(schema).map(([property, , readable]) => [property, readable]));
}

/**
 * What adopting `live` compares (framework/adoption.ts `assertAdoptable`): the same properties
 * as {@link readableRules}, each with the value `wanted` asks for (one it does not ask for is
 * not compared), the value `live` shows in its field, and whether the rule takes that value.
 */
export function fixedProperties(schema: ReplacingReads, wanted: Readonly<Record<string, unknown>>, live: unknown): FixedProperty[] {
  return replacingReads(schema).flatMap(([property, field, readable]) => {
    const found = valueAt(live, field);
    return wanted[property] === undefined || wanted[property] === null
      ? []
      : [[property, wanted[property], found, readable(found)] as const];
  });
}

/**
 * Returns a copy of `value` without `undefined` anywhere inside it. Pulumi's dynamic
 * provider host fails a whole call when an output holds `undefined`, so every `outs`
 * object goes through here.
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(withoutUndefined) as T;
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) result[key] = withoutUndefined(v);
    return result as T;
  }
  return value;
}
