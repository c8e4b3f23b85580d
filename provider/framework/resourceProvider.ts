/**
 * The dynamic provider of one resource type, built from its {@link ResourceSchema} and its
 * {@link ResourceOperations}. The schema alone serves `check` and `diff`; the operations
 * (which load the API client) are loaded the first time `create`, `read`, `update` or
 * `delete` runs.
 */
import { saveCompileCache } from "./compileCache";
import "./lazyZodLocales";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { withinDeadline } from "../client/deadline";
import { NotFoundError } from "../client/errors";
import { AUTONAMED_KEY, withName } from "./autonaming";
import { checkedInputs, checkInputs } from "./check";
import { diffProperties, sameValue, unreadablyRecorded } from "./diff";
import { ResourceInitError, scrubbed } from "./errors";
import { withoutUndefined } from "./outputs";
import type { CoreProvider, DiffDetail } from "./coreProvider";
import {
  desiredOf,
  diffedProperties,
  secretInputs,
  type InputsOf,
  type InputSpecs,
  type OutputSpecs,
  type OutputsOf,
  type Props,
  type ResourceSchema,
} from "./schema";
import {
  ADOPTED_KEY,
  adopts,
  assertReplaceable,
  deleteDecision,
  noteProgram,
  recordedAdoption,
  rememberAdopted,
  rememberAdoptedInState,
} from "./adoption";
import { recordedUnlessChanged } from "./changes";
import { GIVEN_INPUTS_KEY, givenInputs, refreshedInputs } from "./refreshedInputs";
import { OWNER_KEY, REPLACE_ON_CHANGES_KEY } from "./internalInputs";
import { operationContext, recordedReader, sharedOf, type OperationContext, type Recorded } from "./operationContext";
import { changedPathsOf, replacedByOption } from "./replaceOnChanges";
import { trackedOperations } from "./cancellation";
import { endWhenEngineGone, inDynamicProviderHost } from "./engineWatch";
import { keepHeapFlat } from "./heapUpkeep";
import { configurationFailures, configure, providerContext, type ProviderContext } from "./settings";
import { givenSettings } from "./settingsOverride";
import { containsUnknown, UNKNOWN } from "./unknowns";
import { inUserTerms, lookupNotFound, type OperationTiming, timeoutOf, userOperation } from "./userErrors";
import { tellUser } from "./userLog";

/**
 * What a resource type does against the API, typed on both sides: the checked inputs, and
 * the outputs state recorded (read by the definition's outputs). The context of each call
 * holds the resource's project and how long the call may wait, resolved once. Each method's
 * failure contract is Pulumi's: a `create` that throws without an id made nothing; one that
 * throws a `ResourceInitError` made the resource, which stays in state; a `delete` that
 * throws leaves it in state.
 */
export interface ResourceOperations<I extends InputSpecs, O extends OutputSpecs> {
  /** Makes the resource (or adopts one) and waits until it is ready; returns its id and every output. */
  create(news: InputsOf<I>, ctx: OperationContext): Promise<{ id: string; outs: OutputsOf<O> }>;
  /** Reads the live resource's outputs; `undefined` (or a NotFoundError) when it is gone. */
  read(id: string, recorded: Recorded<O>, ctx: OperationContext): Promise<OutputsOf<O> | undefined>;
  /**
   * Applies what changed and returns every output. `changed` are the properties whose desired
   * value (from `news`, after the engine applied `ignoreChanges`) differs from the recorded
   * one: only those are sent, whatever the live resource shows of the others. A failure after
   * anything was changed throws a `ResourceInitError` carrying the outputs as they now are,
   * so that state matches the cloud.
   */
  update(id: string, recorded: Recorded<O>, news: InputsOf<I>, ctx: OperationContext, changed: ReadonlySet<string>): Promise<OutputsOf<O>>;
  /** Deletes the resource and waits until it is gone; one already gone is fine. Never called for an adopted one (framework/adoption.ts). */
  delete(id: string, recorded: Recorded<O>, ctx: OperationContext): Promise<void>;
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
  /**
   * The rule of a readable value (contract/readable.ts) of each property whose change
   * replaces the resource and whose value is read from the live resource: a recorded value
   * the rule refuses was recorded from an answer that did not show it readably, and is no
   * reason to replace (`diff` asks for an update, which records what the resource shows).
   */
  readonly readable?: Readonly<Record<string, (value: unknown) => boolean>>;
  /** Values that must never appear in an error message, besides the API key and secret inputs. */
  secretsOf?(props: Props): unknown[];
  /** Loads the operations (and with them the API client). */
  operations(): ResourceOperations<I, O>;
}

/**
 * What a create, an update and a partial failure record beside the resource's own outputs:
 * the `timeouts` and `settings` the program gave, whether it adopts the resource, and which
 * inputs it gave (refreshedInputs.ts).
 */
function besideOutputs(news: Props): Props {
  return { timeouts: news.timeouts, settings: news.settings, [ADOPTED_KEY]: adopts(news), [GIVEN_INPUTS_KEY]: givenInputs(news) };
}

/**
 * Runs an operation within its `timeouts` (`ctx.limitMs` from now): every request, retry and
 * wait of the client it makes ends by then (client/deadline.ts), whatever the client's own
 * retry deadline (two minutes) would allow.
 */
function bounded<T>(ctx: OperationContext, run: (ctx: OperationContext) => Promise<T>): Promise<T> {
  return withinDeadline(Date.now() + ctx.limitMs, () => run(ctx));
}

/** How long the operation `doing` (`creating ...`, a read waits as an update) could wait, from the resource's `timeouts`; undefined when unreadable. */
function timingOf(ctx: ProviderContext, doing: string, props: Props | undefined): OperationTiming | undefined {
  const timeout = timeoutOf(doing);
  try {
    return { timeout, ms: ctx.timeoutMs(sharedOf(props).timeouts, timeout) };
  } catch {
    return undefined;
  }
}

/**
 * Builds the dynamic provider of one resource type around its definition.
 *
 * - `configure` stores the stack configuration for every resource in this process.
 * - `check` returns the inputs with one failure per bad property, and the name it made up
 *   when the program sets none (framework/autonaming.ts).
 * - `diff` compares desired values with the recorded outputs, exactly, per property; a
 *   resource not yet ready is always an update.
 * - `create`, `read`, `update`, `delete` parse the inputs and delegate to the operations;
 *   their outputs never hold `undefined`, and no error message holds a secret.
 * - The `timeouts` input is kept among the outputs, because `delete` and `read` receive
 *   only the outputs.
 * - In Pulumi's dynamic-provider host, a process whose engine is gone ends its waits and
 *   exits (engineWatch.ts).
 */
export function defineResourceProvider<I extends InputSpecs, O extends OutputSpecs>(
  definition: ResourceDefinition<I, O>,
): Required<Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "read" | "update" | "delete">> & dynamic.ResourceProvider {
  // In Pulumi's dynamic-provider host, end every wait and exit once the engine is gone (engineWatch.ts), and keep the heap flat (heapUpkeep.ts).
  if (inDynamicProviderHost()) {
    endWhenEngineGone();
    keepHeapFlat();
  }
  const core = coreProvider(definition);
  return {
    ...core,
    // What the dynamic-provider host takes of a diff, and nothing more.
    async diff(id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
      const { changes, replaces } = await core.diff(id, olds, news);
      return { changes, replaces };
    },
  };
}

/** {@link defineResourceProvider}, typed as what it is: its `diff` says what changed ({@link DiffDetail}), for the native plugin. */
export function coreProvider<I extends InputSpecs, O extends OutputSpecs>(definition: ResourceDefinition<I, O>): CoreProvider {
  const { schema } = definition;
  /** The operations, loaded (with the API client) the first time one runs; the compile cache is saved then. */
  let loadedOperations: ResourceOperations<I, O> | undefined;
  const operations = (): ResourceOperations<I, O> => {
    if (!loadedOperations) {
      loadedOperations = definition.operations();
      saveCompileCache();
    }
    return loadedOperations;
  };
  const keys = diffedProperties(schema);
  const recordedOf = recordedReader(schema);
  const diffedKeys = keys.map((k) => k.property);
  /**
   * What `diff` and `update` compare: the desired value of each diffed property against the
   * recorded one. A property that the state does not record (written by a version of this
   * package before the input existed) and that the program does not set is not a change: its
   * default is what the resource already has. An input not known yet (preview) is a change.
   * A recorded value its rule refuses (`unread`) asks for an update that records what the
   * resource shows, never a replacement, and is not named as changed.
   */
  const compare = (olds: Props, news: Props, ctx: ProviderContext) => {
    const desired: Props = {
      ...desiredOf(schema, news, olds),
      projectId: news.projectId ?? ctx.settings.projectId ?? olds.projectId,
      timeouts: news.timeouts,
      settings: news.settings,
    };
    for (const { property } of keys) {
      if (containsUnknown(news[property])) desired[property] = UNKNOWN;
      else if (!(property in olds) && (news[property] === undefined || news[property] === null)) desired[property] = undefined;
    }
    const found = diffProperties(olds, desired, keys);
    const unread = unreadablyRecorded(olds, found.changed, definition.readable);
    const named = (ps: readonly string[]) => ps.filter((p) => !unread.includes(p));
    return { desired, changes: found.changes, replaces: named(found.replaces ?? []), changed: named(found.changed), unread };
  };
  const secretKeys = secretInputs(schema);
  /** After an operation that waited: keeps what the client learned of transition times for the next process. */
  const remember = async (ctx: ProviderContext): Promise<void> => {
    if (!ctx.settings.apiUrl || !ctx.clientLoaded()) return;
    // Loaded here: `check` and `diff` need neither the file system nor the journal.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { savePriors } = require("./transitionPriors") as typeof import("./transitionPriors");
    await savePriors(ctx.settings.apiUrl, ctx.client().learnedSamples());
  };
  /** The error to hand to the engine: in the user's terms (`doing` is what the user did), scrubbed of secrets. */
  const scrub = (error: unknown, ctx: ProviderContext, doing: string, ...props: Props[]): Error =>
    scrubbed(inUserTerms(error, doing, timingOf(ctx, doing, props[props.length - 1])), [
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
      error.properties = withoutUndefined({
        ...inputs,
        ...error.properties,
        ...besideOutputs(news),
      });
    }
    return error;
  };

  const provider: CoreProvider = {
    async configure(req: dynamic.ConfigureRequest): Promise<void> {
      configure(req.config);
      // What `check` and `diff` need is loaded by now: keep it compiled for the next process.
      saveCompileCache();
    },

    async check(olds: Props, news: Props, secretInputs?: ReadonlySet<string>): Promise<dynamic.CheckResult> {
      // The configuration's problems too, so that a preview reports them, all at once.
      // A `settings` input not known yet (a preview), or one field of it, stands for what it may set.
      const failures = [...configurationFailures(news.projectId, givenSettings(news.settings)), ...checkInputs(schema, news, secretInputs)];
      noteProgram();
      // A delete later in this run (a replacement's old half) must not delete what this program adopts,
      // nor what the state's inputs adopt (state of 0.1.0, whose outputs do not record it, proves it so).
      rememberAdopted(schema.kind, news.adoptId);
      rememberAdoptedInState(schema.kind, olds?.adoptId);
      if (failures.length === 0 && Object.keys(olds ?? {}).length === 0 && adopts(news) && !containsUnknown(news.adoptId)) {
        // Shown by `pulumi preview` and `up` (the engine prints the plugin's output): a create that is an adoption.
        tellUser(
          `${userOperation("create", schema.kind, news[OWNER_KEY]).replace(/^creating /, "")} adopts ${schema.kind} ` +
            `${String(news.adoptId)} (adoptId) rather than creating one: the stack manages it from then on, and deleting it from the stack ` +
            "(destroy, a replacement, removing it from the program) leaves it in the cloud",
        );
      }
      return { inputs: failures.length > 0 ? news : withName(schema, olds ?? {}, news), failures };
    },

    async diff(id: string, olds: Props, news: Props, movingToNative = false): Promise<DiffDetail> {
      const ctx = providerContext("", false, sharedOf(news).settings);
      const { desired, changes, replaces, changed } = compare(olds, news, ctx);
      const byOption = replacedByOption(news[REPLACE_ON_CHANGES_KEY], changed, olds, desired);
      const replaced = [...new Set([...(replaces ?? []), ...byOption])];
      // A replacement whose old half's delete would stop (state of 0.1.0, nothing to say who made it) stops here, before anything is created.
      if (replaced.length > 0) assertReplaceable(schema.kind, id, olds, ctx.settings.ownership, movingToNative);
      // Setting or removing adoptId (or state that does not record it yet) is an update that records it, sending nothing.
      const adoption = recordedAdoption(olds) !== adopts(news);
      return {
        changes: changes || adoption || definition.settled?.(olds) === false,
        replaces: replaced,
        changed,
        changedPaths: Object.fromEntries(changed.map((p) => [p, changedPathsOf(p, olds[p], desired[p])])),
        desired,
      };
    },

    async create(news: Props): Promise<dynamic.CreateResult> {
      const ctx = providerContext(
        typeof news[OWNER_KEY] === "string" ? news[OWNER_KEY] : "",
        news[AUTONAMED_KEY] === true,
        sharedOf(news).settings,
      );
      try {
        const parsed = checkedInputs(schema, news, true);
        const shared = sharedOf(news);
        const { id, outs } = await bounded(operationContext(ctx, shared.projectId, shared.timeouts, "create"), (c) =>
          operations().create(parsed, c),
        );
        if (adopts(news)) rememberAdopted(schema.kind, id);
        return { id, outs: withoutUndefined({ ...outs, ...besideOutputs(news) }) };
      } catch (e) {
        throw scrub(withInputs(e, news), ctx, userOperation("create", schema.kind, news[OWNER_KEY]), news);
      } finally {
        await remember(ctx);
      }
    },

    async read(id: string, props: Props, oldInputs?: Props): Promise<dynamic.ReadResult> {
      const ctx = providerContext("", false, sharedOf(props).settings);
      const recorded = props ?? {};
      try {
        const shared = sharedOf(recorded);
        const found = await bounded(operationContext(ctx, shared.projectId, shared.timeouts, "update"), (c) =>
          operations().read(id, recordedOf(recorded), c),
        ).catch((e: unknown) => {
          if (NotFoundError.isInstance(e)) return undefined;
          throw e;
        });
        if (!found) {
          // Gone: a refresh drops it. But a lookup (`X.get`) reads with the program's state, which
          // has no id output, and Pulumi would take an empty answer as found.
          if (recorded[schema.idOutput] === undefined) throw lookupNotFound(schema.kind, id);
          return { id: "" };
        }
        const outs: Props = {
          ...found,
          timeouts: recorded.timeouts,
          settings: recorded.settings,
          [ADOPTED_KEY]: recordedAdoption(recorded),
          [GIVEN_INPUTS_KEY]: recorded[GIVEN_INPUTS_KEY],
        };
        // Inputs are replaced only when something drifted, so the next `up` diffs against
        // what is live; otherwise the inputs the program wrote stay as they are. They are the
        // old inputs with what drifted replaced, so that Pulumi shows exactly the drift
        // (framework/refreshedInputs.ts).
        // A property the state does not record yet (written before the input existed) is learned, not drift.
        const drifted = diffedKeys.filter((p) => p in recorded && !sameValue(recorded[p] ?? null, outs[p] ?? null));
        if (drifted.length === 0) return { id, props: withoutUndefined(outs) };
        const inputs = refreshedInputs({ id, outs, recorded, drifted, diffed: diffedKeys, secrets: secretKeys, oldInputs });
        return { id, props: withoutUndefined(outs), inputs };
      } catch (e) {
        throw scrub(e, ctx, userOperation("read", schema.kind, undefined, id), recorded);
      }
    },

    async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
      const ctx = providerContext("", false, sharedOf(news).settings);
      const doing = userOperation("update", schema.kind, news[OWNER_KEY], id);
      let parsed: InputsOf<I>;
      try {
        parsed = checkedInputs(schema, news, false);
      } catch (e) {
        throw scrub(e, ctx, doing, olds, news);
      }
      const compared = compare(olds, parsed, ctx);
      const changed = new Set([...compared.changed, ...compared.unread]);
      const recorded = (outs: Props): Props => recordedUnlessChanged(outs, olds, diffedKeys, changed);
      try {
        const [given, kept] = [sharedOf(news), sharedOf(olds)];
        const opCtx = operationContext(ctx, given.projectId ?? kept.projectId, given.timeouts, "update");
        const outs = await bounded(opCtx, (c) => operations().update(id, recordedOf(olds), parsed, c, changed));
        return {
          outs: withoutUndefined({
            ...recorded(outs),
            ...besideOutputs(news),
          }),
        };
      } catch (e) {
        if (ResourceInitError.isInstance(e)) e.properties = recorded(e.properties);
        throw scrub(withInputs(e, news), ctx, doing, olds, news);
      } finally {
        await remember(ctx);
      }
    },

    async delete(id: string, props: Props): Promise<void> {
      const ctx = providerContext("", false, sharedOf(props).settings);
      let decision;
      try {
        decision = deleteDecision(schema.kind, id, `${schema.kind} ${id}`, props, ctx.settings.ownership);
      } catch (e) {
        throw scrub(e, ctx, userOperation("delete", schema.kind, undefined, id), props);
      }
      if (!decision.delete) {
        tellUser(decision.why);
        return;
      }
      try {
        const shared = sharedOf(props);
        await bounded(operationContext(ctx, shared.projectId, shared.timeouts, "delete"), (c) =>
          operations().delete(id, recordedOf(props), c),
        );
      } catch (e) {
        throw scrub(e, ctx, userOperation("delete", schema.kind, undefined, id), props);
      } finally {
        await remember(ctx);
      }
    },
  };
  // Counted while under way: a process whose engine is gone ends once they have (engineWatch.ts).
  return trackedOperations(provider);
}
