import type * as dynamic from "@pulumi/pulumi/dynamic";
import { checkInputs, type InputRules } from "./check";
import { NotFoundError } from "../client";
import { diffProperties, sameValue, type DiffKey } from "./diff";
import { withoutSecrets } from "./errors";
import { withoutUndefined } from "./outputs";
import { containsUnknown, UNKNOWN } from "./unknowns";
import { configure, settings } from "./settings";

/**
 * `timeouts` is diffed like any in-place property: a change alone is an update that
 * sends no API request but records the new timeouts among the outputs, which is all
 * that `delete` receives.
 */
const TIMEOUTS_KEY: DiffKey = { property: "timeouts", replace: false };

/** Inputs and outputs as they cross the dynamic-provider boundary. */
export type Props = Record<string, unknown>;

/**
 * What one resource type implements. The shared wrapper ({@link defineResourceProvider})
 * adds configuration, input checking, diffing, output hygiene and secret scrubbing.
 */
export interface ResourceDefinition {
  /** The type's name, e.g. `Vpc`. */
  readonly kind: string;
  /** How `check` validates the inputs. */
  readonly rules: InputRules;
  /** The properties `diff` compares, and which of them replace. */
  readonly diffKeys: readonly DiffKey[];
  /** The output holding the resource's id (`serviceId`): absent from the state a lookup (`X.get`) reads with. */
  readonly idOutput: string;
  /**
   * False while the recorded resource is not in its ready state (being created, failed,
   * paused half-way): `diff` then asks for an update, which resumes waiting or reports the
   * failure again, whatever else the state says (a refresh clears Pulumi's record of an
   * unfinished create). Without it, every recorded resource counts as ready.
   */
  settled?(recorded: Props): boolean;
  /**
   * The desired value of every diffed property: the inputs with the defaults the user
   * did not write filled in, shaped like the outputs. `recorded` is the old outputs.
   * Without it, each diffed property is the input as written, and `projectId` the
   * input's or the configured one.
   */
  desired?(news: Props, recorded: Props): Props;
  /** Values that must never appear in an error message (passwords). */
  secretsOf?(props: Props): Array<string | undefined>;
  /**
   * Makes the resource (or adopts one) and waits until it is ready. If the cloud
   * accepted it but it never became ready, throws a `ResourceInitError` carrying the id.
   * Any other error means nothing was made.
   */
  create(news: Props): Promise<{ id: string; outs: Props }>;
  /**
   * Reads the live resource and returns its outputs; `undefined` (or a NotFoundError)
   * when it is gone.
   */
  read(id: string, props: Props): Promise<Props | undefined>;
  /** Converges the live resource to `news` and returns every output. */
  update(id: string, olds: Props, news: Props): Promise<Props>;
  /** Deletes the resource and waits until it is gone; a resource already gone is fine. */
  delete(id: string, props: Props): Promise<void>;
}

/** The error for a lookup (`X.get`) of an id that does not exist. */
function lookupNotFound(kind: string, id: string): Error {
  return new NotFoundError({
    status: 404,
    code: "NOT_FOUND",
    apiMessage: `No ${kind} with id ${JSON.stringify(id)}`,
    operation: `${kind}.get`,
    hint: `${kind}.get looks up an existing ${kind}: check the id, and the projectId (or clouddb:projectId) it belongs to.`,
  });
}

/**
 * The project a resource's inputs ask for: their own `projectId`, else the configured
 * one, else (no configuration in this process) the one recorded.
 */
function projectOf(news: Props, recorded: Props): unknown {
  return news.projectId ?? settings().projectId ?? recorded.projectId;
}

/** The diffed properties as the inputs write them. */
function asWritten(news: Props, recorded: Props, keys: readonly DiffKey[]): Props {
  return { ...Object.fromEntries(keys.map(({ property }) => [property, news[property]])), projectId: projectOf(news, recorded) };
}

/**
 * Builds the dynamic provider of one resource type around its definition.
 *
 * - `configure` stores the stack configuration for every resource in this process.
 * - `check` returns the inputs unchanged with one failure per bad property.
 * - `diff` compares desired values with the recorded outputs: exact, per property.
 * - `create`, `read`, `update`, `delete` delegate to the definition; their outputs never
 *   hold `undefined`, and no error message holds the API key or a password.
 * - The `timeouts` input is kept among the outputs, because `delete` and `read` receive
 *   only the outputs.
 */
export function defineResourceProvider(definition: ResourceDefinition): Required<
  Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "read" | "update" | "delete">
> &
  dynamic.ResourceProvider {
  const scrub = (error: unknown, ...props: Props[]): Error =>
    withoutSecrets(error, [settings().apiKey, ...props.flatMap((p) => definition.secretsOf?.(p) ?? [])]);

  return {
    async configure(req: dynamic.ConfigureRequest): Promise<void> {
      configure(req.config);
    },

    async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
      return { inputs: news, failures: checkInputs(definition.rules, news) };
    },

    async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
      const keys = [...definition.diffKeys, TIMEOUTS_KEY];
      const wanted = definition.desired?.(news, olds) ?? asWritten(news, olds, definition.diffKeys);
      const desired: Props = { ...wanted, projectId: wanted.projectId ?? projectOf(news, olds), timeouts: news.timeouts };
      // An input that is not known yet (preview) is a change, whatever defaults say.
      for (const { property } of keys) if (containsUnknown(news[property])) desired[property] = UNKNOWN;
      const { changes, replaces } = diffProperties(olds, desired, keys);
      return { changes: changes || definition.settled?.(olds) === false, replaces };
    },

    async create(news: Props): Promise<dynamic.CreateResult> {
      try {
        const { id, outs } = await definition.create(news);
        return { id, outs: withoutUndefined({ ...outs, timeouts: news.timeouts }) };
      } catch (e) {
        throw scrub(e, news);
      }
    },

    async read(id: string, props: Props): Promise<dynamic.ReadResult> {
      const recorded = props ?? {};
      try {
        const found = await definition.read(id, recorded).catch((e: unknown) => {
          if (NotFoundError.isInstance(e)) return undefined;
          throw e;
        });
        if (!found) {
          // Gone: a refresh drops it. But a lookup (`X.get`) reads with the program's state, which
          // has no id output, and Pulumi would take an empty answer as found.
          if (recorded[definition.idOutput] === undefined) throw lookupNotFound(definition.kind, id);
          return { id: "" };
        }
        const outs: Props = { ...found, timeouts: recorded.timeouts };
        // Inputs are replaced only when something drifted, so the next `up` diffs against
        // what is live; otherwise the inputs the program wrote stay as they are. They hold
        // every diffed property and the timeouts, so that diffing the outputs against them
        // finds nothing (Pulumi shows each refresh as that diff). Secret properties never go
        // into inputs: the engine stores those in plain text.
        const drifted = definition.diffKeys.some(({ property }) => !sameValue(recorded[property] ?? null, outs[property] ?? null));
        if (!drifted) return { id, props: withoutUndefined(outs) };
        const secret = new Set(definition.rules.secret ?? []);
        const inputs = Object.fromEntries(
          [...definition.diffKeys.map(({ property }) => property), "timeouts"]
            .filter((property) => !secret.has(property))
            .map((property) => [property, outs[property]]),
        );
        return { id, props: withoutUndefined(outs), inputs: withoutUndefined(inputs) };
      } catch (e) {
        throw scrub(e, recorded);
      }
    },

    async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
      try {
        const outs = await definition.update(id, olds, news);
        return { outs: withoutUndefined({ ...outs, timeouts: news.timeouts }) };
      } catch (e) {
        throw scrub(e, olds, news);
      }
    },

    async delete(id: string, props: Props): Promise<void> {
      try {
        await definition.delete(id, props);
      } catch (e) {
        throw scrub(e, props);
      }
    },
  };
}
