/**
 * The functions the plugin serves (Invoke), `clouddb:index:<name>`: the lookups of the
 * provider's table (provider/lookups), the very entries a TypeScript program's `getService`
 * & co run, each reading the configuration of the provider it is invoked on instead of the
 * program's. This module only translates: a token to its entry, the engine's arguments to the
 * entry's (checked first), and its answer to an object (the package schema's functions return
 * objects): a lookup of one resource returns its outputs, a lookup of many holds them in the
 * list property its entry names, each value in the native SDKs' form (valueForms.ts).
 */
import type { ConfigSource } from "../framework/settings";
import { LOOKUPS, type Lookup, type LookupResultShape } from "../lookups";
import { RESOURCES } from "../resources/registry";
import { resourceForms, SAME_FORMS, type BagForms } from "./valueForms";
import type { Bag } from "./protos";

/** The function a token names (`clouddb:index:getService`) among `functions` (every lookup unless given), or undefined. */
export function functionOf(token: string, functions: Readonly<Record<string, Lookup>> = LOOKUPS): Lookup | undefined {
  const m = /^clouddb:index:(\w+)$/.exec(token);
  return m && Object.prototype.hasOwnProperty.call(functions, m[1]) ? functions[m[1]] : undefined;
}

/** What is wrong with a function's arguments: each required one missing or not a string, each unknown one; empty when none. */
export function argumentFailures(spec: Lookup, args: Bag): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  for (const [key, arg] of Object.entries(spec.args)) {
    const v = args[key];
    if (v === undefined || v === null || v === "") {
      if (arg.required) failures.push({ property: key, reason: `${key} is required: ${arg.doc}` });
    } else if (typeof v !== "string") {
      failures.push({ property: key, reason: `${key} must be a string, not ${JSON.stringify(v)}` });
    }
  }
  for (const key of Object.keys(args)) {
    if (!(key in spec.args))
      failures.push({
        property: key,
        reason: `${key} is no argument of this function; its arguments: ${Object.keys(spec.args).join(", ") || "none"}`,
      });
  }
  return failures;
}

/** Runs a function whose arguments {@link argumentFailures} found nothing wrong with, against the API `config` points at. */
export async function runFunction(spec: Lookup, args: Bag, config: ConfigSource): Promise<Bag> {
  // Each argument is a string (checked); an empty one is as good as none.
  const given = Object.fromEntries(
    Object.keys(spec.args).map((key) => [key, typeof args[key] === "string" && args[key] !== "" ? args[key] : undefined]),
  );
  const result = await spec.run(given, undefined, config);
  const forms = resultForms(spec.result);
  return "list" in spec.result
    ? { [spec.result.list]: (result as Bag[]).map((item) => forms.toNative(item)) }
    : forms.toNative({ ...(result as Bag) });
}

/** The native SDKs' form of a lookup's result: its kind's outputs' (a kind not registered, or a result of its own, has none). */
function resultForms(result: LookupResultShape): BagForms {
  const registered = "kind" in result ? RESOURCES.find((r) => r.definition.schema.kind === result.kind) : undefined;
  return registered ? resourceForms(registered).outputs : SAME_FORMS;
}
