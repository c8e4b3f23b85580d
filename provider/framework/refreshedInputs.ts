/**
 * The inputs a refresh records, so that Pulumi shows exactly the drift. The engine shows a
 * refresh of a provider whose Diff has no detailed diff (a dynamic provider's) as the
 * difference between the inputs stored before and the inputs the Read returned
 * (pkg/backend/display: old inputs against new), and stores the returned inputs in place of
 * the old (pkg/resource/deploy/step.go `RefreshStep.Apply`). So a Read that returns every
 * property lists each one the program never set as added. The inputs returned here are the
 * old ones, each drifted property replaced by what the resource shows (one the program never
 * set is added: it drifted, and `ignoreChanges` keeps drift only in the inputs).
 *
 * The native plugin's Read is given the old inputs. The dynamic-provider host passes Read the
 * outputs alone (`provider.read(id, props)` in @pulumi/pulumi/cmd/dynamic-provider), so every
 * create and update records, among the outputs, which inputs the program gave
 * ({@link GIVEN_INPUTS_KEY}); their values are those of the outputs (the program's own until
 * something drifted). A secret input is returned only when the program gave it: the engine
 * marks it secret again, as in the old inputs (`annotateSecrets` in
 * pkg/resource/plugin/provider_plugin.go `Read`).
 */
import { AUTONAMED_KEY, OWNER_KEY, PROVIDER_KEY, REPLACE_ON_CHANGES_KEY } from "./internalInputs";
import { withoutUndefined } from "./outputs";
import type { Props } from "./schema";

/** The output holding the names of the inputs the program gave (a dynamic resource's Read sees only its outputs). */
export const GIVEN_INPUTS_KEY = "__inputs";

/** What the program gives again every run, and so what a refresh need not keep: the provider text, the owner, the replaceOnChanges paths. */
const GIVEN_EACH_RUN: ReadonlySet<string> = new Set([PROVIDER_KEY, OWNER_KEY, REPLACE_ON_CHANGES_KEY]);

/** The names of the inputs `news` gives (as `check` returned them), for {@link GIVEN_INPUTS_KEY}. */
export function givenInputs(news: Props): string[] {
  return Object.keys(news)
    .filter((k) => !GIVEN_EACH_RUN.has(k) && news[k] !== undefined && news[k] !== null)
    .sort();
}

/** What a refresh knows of a resource, to return its inputs. */
export interface Refreshed {
  /** The resource's id. */
  readonly id: string;
  /** The outputs the refresh records. */
  readonly outs: Props;
  /** The outputs recorded before. */
  readonly recorded: Props;
  /** The diffed properties whose value the refresh read differently from the recorded one. */
  readonly drifted: readonly string[];
  /** Every diffed property. */
  readonly diffed: readonly string[];
  /** The secret inputs. */
  readonly secrets: readonly string[];
  /** The inputs stored before, when the host gives them (the native plugin). */
  readonly oldInputs?: Props;
}

/** The old inputs, rebuilt from the outputs and the names {@link GIVEN_INPUTS_KEY} recorded; undefined when none are recorded (state written before). */
function rebuilt(r: Refreshed): Props | undefined {
  const names = r.recorded[GIVEN_INPUTS_KEY];
  if (!Array.isArray(names)) return undefined;
  const value = (k: string): unknown => (k === AUTONAMED_KEY ? true : k === "adoptId" ? r.id : k in r.recorded ? r.recorded[k] : undefined);
  return Object.fromEntries(names.filter((k): k is string => typeof k === "string").map((k) => [k, value(k)]));
}

/**
 * The inputs a refresh that found drift returns: the old ones (given, or rebuilt) with each
 * drifted property replaced by what the resource shows. State written before the names were
 * recorded, read by a host that gives no old inputs, gets every diffed property that is no
 * secret, and the timeouts, as before.
 */
export function refreshedInputs(r: Refreshed): Props {
  const old = r.oldInputs ?? rebuilt(r);
  if (old === undefined) {
    const keys = [...r.diffed, "timeouts"].filter((p) => !r.secrets.includes(p));
    return withoutUndefined(Object.fromEntries(keys.map((p) => [p, r.outs[p]])));
  }
  const inputs: Props = { ...old };
  for (const p of r.drifted) if (!r.secrets.includes(p) || p in old) inputs[p] = r.outs[p];
  return withoutUndefined(inputs);
}
