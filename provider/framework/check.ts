/**
 * `check`: the inputs against a resource's schema, before anything is sent. One failure
 * per bad property, naming the property, the value given and what is allowed.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { UncheckedInputsError } from "./errors";
import { INTERNAL_KEYS } from "./internalInputs";
import { parseInputs, type InputsOf, type InputSpecs, type WithInputs } from "./schema";
import { containsUnknown } from "./unknowns";

/** Renders the value of a (top-level) property for a check failure's reason: `[secret]` for a secret one. */
export type ShowValue = (property: string, value: unknown) => string;

/** A rule over several properties, run once each of them is valid and known. */
export interface CrossRule {
  /** The properties the rule reads; it runs only when none is unknown. */
  readonly properties: readonly string[];
  /** Returns the failures, if any; `news` holds the inputs; a reason quotes a value only as `show` renders it. */
  validate(news: Record<string, unknown>, show: ShowValue): CheckFailure[];
}

const MAX_SHOWN = 80;

/** Renders a value for a check failure's reason: short, and never a secret. */
export function showValue(value: unknown, secret = false): string {
  if (secret) return "[secret]";
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The top-level property of a failure's property path (`haReplicas` of `haReplicas.replicaCount`, `tags` of `tags[0]`). */
export function topProperty(path: string): string {
  return path.split(/[.[]/, 1)[0];
}

/** Edit distance of two short strings (case-insensitive). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[y.length];
}

/** The known name closest to `name`. */
export function closest(name: string, known: readonly string[]): string {
  return [...known].sort((a, b) => distance(name, a) - distance(name, b) || a.localeCompare(b))[0] ?? "";
}

/**
 * Checks the inputs of a resource: one failure per bad property, whose `property` is
 * the input's name (dotted for nested fields, e.g. `haReplicas.syncReplicaCount`) and
 * whose `reason` names the value given and what is allowed. A property the resource
 * does not have fails too, naming the closest one it has. Values that are unknown during
 * a preview pass, as do rules that read them.
 *
 * A failure on a secret property (one the schema declares secret, or one of `secretInputs`:
 * a host that knows which inputs the program gave as secrets, the native plugin, says so)
 * names it only in its reason, with `property` empty, and shows its value as `[secret]`:
 * Pulumi prints a failure that names a property with that property's value from the
 * program, in plain text even when it is a secret.
 */
export function checkInputs(
  schema: WithInputs & {
    readonly kind: string;
    readonly cross?: readonly CrossRule[];
    readonly replacedNatively?: Readonly<Record<string, string>>;
  },
  news: Record<string, unknown>,
  secretInputs: ReadonlySet<string> = new Set(),
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const bad = new Set<string>();
  const specs = schema.inputs;
  const secret = (property: string): boolean => specs[property]?.secret === true || secretInputs.has(property);
  const show: ShowValue = (property, value) => showValue(value, secret(property));
  const known = Object.keys(specs);
  for (const property of Object.keys(news)) {
    if (INTERNAL_KEYS.has(property) || property in specs || news[property] === undefined) continue;
    bad.add(property);
    const instead = schema.replacedNatively?.[property];
    failures.push({
      property,
      reason:
        instead === undefined
          ? `${property} is not an input of clouddb.${schema.kind}; did you mean ${closest(property, known)}? (inputs: ${known.join(", ")})`
          : `${property} is not an input of clouddb.${schema.kind} served by the native provider: use ${instead}`,
    });
  }
  for (const [property, spec] of Object.entries(specs)) {
    const value = news[property];
    if (value === undefined || value === null) {
      if (spec.required) {
        failures.push({ property, reason: `${property} is required` });
        bad.add(property);
      }
      continue;
    }
    if (containsUnknown(value)) continue;
    const result = spec.schema.safeParse(value);
    if (result.success) continue;
    bad.add(property);
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const path = [property, ...issue.path.map(String)].join(".");
      if (seen.has(path)) continue;
      seen.add(path);
      const given = show(property, valueAt(value, issue.path));
      failures.push({ property: path, reason: `${path} is ${given}: ${issue.message}` });
    }
  }
  for (const rule of schema.cross ?? []) {
    if (rule.properties.some((p) => bad.has(p) || containsUnknown(news[p]))) continue;
    failures.push(...rule.validate(news, show));
  }
  return failures.map((f) => (secret(topProperty(f.property)) ? { property: "", reason: f.reason } : f));
}

/**
 * The inputs of a create (`creating`) or an update, typed, once they pass `check`'s rules:
 * the engine calls Check before either, so a failure here means a caller skipped it. A create
 * also needs the name Check makes up when the program sets none (framework/autonaming.ts).
 *
 * @throws UncheckedInputsError naming each failing input and why (never the inputs themselves)
 */
export function checkedInputs<I extends InputSpecs>(
  schema: WithInputs<I> & { readonly kind: string; readonly cross?: readonly CrossRule[] },
  news: Record<string, unknown>,
  creating: boolean,
): InputsOf<I> {
  const failures = checkInputs(schema, news);
  const named = !("name" in schema.inputs) || news.name != null || news.adoptId != null;
  if (creating && !named) {
    failures.push({ property: "name", reason: "name is not given, nor made up by Check (which names a resource whose program sets none)" });
  }
  if (failures.length > 0) throw new UncheckedInputsError(`${creating ? "create" : "update"} of clouddb.${schema.kind}`, failures);
  return parseInputs(schema, news);
}
