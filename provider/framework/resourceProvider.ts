/**
 * The dynamic provider of one resource type, built from its {@link ResourceSchema} and its
 * {@link ResourceOperations}. The schema alone serves `check` and `diff`; the operations
 * (which load the API client) are loaded the first time `create`, `read`, `update` or
 * `delete` runs.
 */
import "./compileCache";
import "./lazyZodLocales";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { NotFoundError } from "../client/errors";
import { checkInputs } from "./check";
import { diffProperties, sameValue } from "./diff";
import { ResourceInitError, scrubbed } from "./errors";
import { withoutUndefined } from "./outputs";
import {
  desiredOf,
  diffedProperties,
  parseInputs,
  secretInputs,
  type InputsOf,
  type InputSpecs,
  type OutputSpecs,
  type Props,
  type ResourceSchema,
} from "./schema";
import { configurationFailures, configure, providerContext, type ProviderContext } from "./settings";
import { containsUnknown, UNKNOWN } from "./unknowns";
import { inUserTerms, userOperation } from "./userErrors";

/**
 * The input the SDK adds to every resource: `<project>/<stack>/<type>/<name>`, so that a
 * create interrupted in one stack is never taken over by another (framework/journal.ts).
 */
export const OWNER_KEY = "__owner";

/**
 * What a resource type does against the API. Each method's failure contract is Pulumi's:
 * a `create` that throws without an id made nothing; one that throws a `ResourceInitError`
 * made the resource, which stays in state; a `delete` that throws leaves it in state.
 */
export interface ResourceOperations<I extends InputSpecs> {
  /** Makes the resource (or adopts one) and waits until it is ready; returns its id and every output. */
  create(news: InputsOf<I>, ctx: ProviderContext): Promise<{ id: string; outs: Props }>;
  /** Reads the live resource's outputs; `undefined` (or a NotFoundError) when it is gone. `recorded` are the outputs in state. */
  read(id: string, recorded: Props, ctx: ProviderContext): Promise<Props | undefined>;
  /** Converges the live resource to `news` and returns every output. `olds` are the outputs in state. */
  update(id: string, olds: Props, news: InputsOf<I>, ctx: ProviderContext): Promise<Props>;
  /** Deletes the resource and waits until it is gone; one already gone is fine. */
  delete(id: string, recorded: Props, ctx: ProviderContext): Promise<void>;
}

/** A resource type: its schema, how `diff` sees it, and where its operations are. */
export interface ResourceDefinition<I extends InputSpecs, O extends OutputSpecs> {
  readonly schema: ResourceSchema<I, O>;
  /**
   * False while the recorded resource is not in its ready state (being created, failed,
   * paused half-way): `diff` then asks for an update, which resumes waiting or reports the
   * failure again, whatever else the state says (a refresh clears Pulumi's record of an
   * unfinished create). Without it, every recorded resource counts as ready.
   */
  settled?(recorded: Props): boolean;
  /** Values that must never appear in an error message, besides the API key and secret inputs. */
  secretsOf?(props: Props): unknown[];
  /** Loads the operations (and with them the API client). */
  operations(): ResourceOperations<I>;
}

/** The error for a lookup (`X.get`) of an id that does not exist. */
function lookupNotFound(kind: string, id: string): NotFoundError {
  return new NotFoundError({
    status: 404,
    code: "NOT_FOUND",
    apiMessage: `No ${kind} with id ${JSON.stringify(id)}`,
    operation: `${kind}.get`,
    hint: `${kind}.get looks up an existing ${kind}: check the id, and the projectId (or clouddb:projectId) it belongs to.`,
  });
}

/**
 * Builds the dynamic provider of one resource type around its definition.
 *
 * - `configure` stores the stack configuration for every resource in this process.
 * - `check` returns the inputs unchanged with one failure per bad property.
 * - `diff` compares desired values with the recorded outputs, exactly, per property; a
 *   resource not yet ready is always an update.
 * - `create`, `read`, `update`, `delete` parse the inputs and delegate to the operations;
 *   their outputs never hold `undefined`, and no error message holds a secret.
 * - The `timeouts` input is kept among the outputs, because `delete` and `read` receive
 *   only the outputs.
 */
export function defineResourceProvider<I extends InputSpecs, O extends OutputSpecs>(
  definition: ResourceDefinition<I, O>,
): Required<Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "read" | "update" | "delete">> & dynamic.ResourceProvider {
  const { schema } = definition;
  const keys = diffedProperties(schema);
  const secretKeys = secretInputs(schema);
  /** After an operation that waited: keeps what the client learned of transition times for the next process. */
  const remember = (ctx: ProviderContext): void => {
    if (!ctx.settings.apiUrl || !ctx.clientLoaded()) return;
    // Loaded here: `check` and `diff` need neither the file system nor the journal.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { savePriors } = require("./transitionPriors") as typeof import("./transitionPriors");
    savePriors(ctx.settings.apiUrl, ctx.client().learnedDurations());
  };
  /** The error to hand to the engine: in the user's terms (`doing` is what the user did), scrubbed of secrets. */
  const scrub = (error: unknown, ctx: ProviderContext, doing: string, ...props: Props[]): Error =>
    scrubbed(inUserTerms(error, doing), [
      ctx.settings.apiKey,
      ...props.flatMap((p) => [...secretKeys.map((k) => p[k]), ...(definition.secretsOf?.(p) ?? [])]),
    ]);
  /**
   * A partial failure keeps the resource in state with the error's properties as its
   * outputs: they hold the inputs (`__provider` included, or later calls cannot load the
   * provider; secret inputs only where the error says the resource has them) and the timeouts.
   */
  const withInputs = (error: unknown, news: Props): unknown => {
    if (ResourceInitError.isInstance(error)) {
      const inputs = Object.fromEntries(Object.entries(news).filter(([k]) => !secretKeys.includes(k)));
      error.properties = withoutUndefined({ ...inputs, ...error.properties, timeouts: news.timeouts });
    }
    return error;
  };

  return {
    async configure(req: dynamic.ConfigureRequest): Promise<void> {
      configure(req.config);
    },

    async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
      // The configuration's problems too, so that a preview reports them, all at once.
      return { inputs: news, failures: [...configurationFailures(news.projectId), ...checkInputs(schema, news)] };
    },

    async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
      const ctx = providerContext();
      const desired: Props = {
        ...desiredOf(schema, news, olds),
        projectId: news.projectId ?? ctx.settings.projectId ?? olds.projectId,
        timeouts: news.timeouts,
      };
      // An input that is not known yet (preview) is a change, whatever defaults say.
      for (const { property } of keys) if (containsUnknown(news[property])) desired[property] = UNKNOWN;
      const { changes, replaces } = diffProperties(olds, desired, keys);
      return { changes: changes || definition.settled?.(olds) === false, replaces };
    },

    async create(news: Props): Promise<dynamic.CreateResult> {
      const ctx = providerContext(typeof news[OWNER_KEY] === "string" ? news[OWNER_KEY] : "");
      try {
        const { id, outs } = await definition.operations().create(parseInputs(schema, news), ctx);
        return { id, outs: withoutUndefined({ ...outs, timeouts: news.timeouts }) };
      } catch (e) {
        throw scrub(withInputs(e, news), ctx, userOperation("create", schema.kind, news[OWNER_KEY]), news);
      } finally {
        remember(ctx);
      }
    },

    async read(id: string, props: Props): Promise<dynamic.ReadResult> {
      const ctx = providerContext();
      const recorded = props ?? {};
      try {
        const found = await definition
          .operations()
          .read(id, recorded, ctx)
          .catch((e: unknown) => {
            if (NotFoundError.isInstance(e)) return undefined;
            throw e;
          });
        if (!found) {
          // Gone: a refresh drops it. But a lookup (`X.get`) reads with the program's state, which
          // has no id output, and Pulumi would take an empty answer as found.
          if (recorded[schema.idOutput] === undefined) throw lookupNotFound(schema.kind, id);
          return { id: "" };
        }
        const outs: Props = { ...found, timeouts: recorded.timeouts };
        // Inputs are replaced only when something drifted, so the next `up` diffs against
        // what is live; otherwise the inputs the program wrote stay as they are. They hold
        // every diffed property and the timeouts, so that diffing the outputs against them
        // finds nothing (Pulumi shows each refresh as that diff). Secret properties never go
        // into inputs: the engine stores those in plain text.
        const drifted = keys.some(({ property }) => !sameValue(recorded[property] ?? null, outs[property] ?? null));
        if (!drifted) return { id, props: withoutUndefined(outs) };
        const inputs = Object.fromEntries(
          [...keys.map(({ property }) => property), "timeouts"].filter((p) => !secretKeys.includes(p)).map((p) => [p, outs[p]]),
        );
        return { id, props: withoutUndefined(outs), inputs: withoutUndefined(inputs) };
      } catch (e) {
        throw scrub(e, ctx, userOperation("read", schema.kind, undefined, id), recorded);
      }
    },

    async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
      const ctx = providerContext();
      try {
        const outs = await definition.operations().update(id, olds, parseInputs(schema, news), ctx);
        return { outs: withoutUndefined({ ...outs, timeouts: news.timeouts }) };
      } catch (e) {
        throw scrub(withInputs(e, news), ctx, userOperation("update", schema.kind, news[OWNER_KEY], id), olds, news);
      } finally {
        remember(ctx);
      }
    },

    async delete(id: string, props: Props): Promise<void> {
      const ctx = providerContext();
      try {
        await definition.operations().delete(id, props, ctx);
      } catch (e) {
        throw scrub(e, ctx, userOperation("delete", schema.kind, undefined, id), props);
      } finally {
        remember(ctx);
      }
    },
  };
}
