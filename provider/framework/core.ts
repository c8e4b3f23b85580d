/**
 * The core of one resource type (framework/coreProvider.ts), built from its {@link ResourceDefinition}:
 * every rule, operation and message both hosts serve. The schema alone serves `check` and
 * `diff`; the operations (which load the API client) are loaded the first time `create`,
 * `read`, `update` or `delete` runs.
 *
 * - `check` returns the inputs with one failure per bad property, and the name it made up
 *   when the program sets none (framework/autonaming.ts), from the request's owner.
 * - `diff` compares desired values with the recorded outputs, exactly, per property; a
 *   resource not yet ready is always an update.
 * - `create` and `update` in a preview say what the outputs will be; otherwise they, `read`
 *   and `delete` parse the inputs and delegate to the operations, each within the resource's
 *   `timeouts` bounded by the engine's (the request's `engineTimeoutSeconds`); outputs never
 *   hold `undefined`, and no error message holds a secret.
 * - Beside the resource's own outputs, state records the `timeouts` and `settings` the program
 *   wrote (`delete` and `read` receive only the outputs), whether it adopts the resource, and
 *   which inputs it gave ({@link besideOutputs}).
 * - A schema without those inputs (the native plugin's, framework/schema.ts `nativeSchema`)
 *   waits as long as the engine allows (`customTimeouts`), else the configured defaults,
 *   whatever `timeouts` older state records; `settings` older state records are still where
 *   `read` and `delete` find the resource, and `diff` stops when the provider's differ
 *   (framework/recordedSettings.ts).
 */
import { saveCompileCache } from "./compileCache";
import "./lazyZodLocales";
import { withinDeadline } from "../client/deadline";
import { NotFoundError } from "../client/errors";
import { AUTONAMED_KEY, withName } from "./autonaming";
import { checkedInputs, checkInputs } from "./check";
import { diffProperties, sameValue, unreadablyRecorded } from "./diff";
import { ResourceInitError, scrubbed } from "./errors";
import { readableRules, withoutUndefined } from "./outputs";
import type { CoreProvider } from "./coreProvider";
import type { ResourceDefinition, ResourceOperations } from "./definition";
import { desiredOf, diffedProperties, secretInputs, type InputsOf, type InputSpecs, type OutputSpecs, type Props } from "./schema";
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
import { assertRecordedSettingsServed } from "./recordedSettings";
import { GIVEN_INPUTS_KEY, givenInputs, refreshedInputs } from "./refreshedInputs";
import { REPLACE_ON_CHANGES_KEY } from "./internalInputs";
import { operationContext, recordedReader, sharedOf, type OperationContext, type TimedOperation } from "./operationContext";
import { changedPathsOf, replacedByOption } from "./replaceOnChanges";
import { trackedOperations } from "./cancellation";
import { configurationFailures, configure, providerContext, settingsFor, type ProviderContext } from "./settings";
import { givenSettings } from "./settingsOverride";
import { boundedTimeouts, type TimeoutsInput } from "./timeouts";
import { containsUnknown, UNKNOWN } from "./unknowns";
import { inUserTerms, lookupNotFound, type OperationTiming, timeoutOf, userOperation } from "./userErrors";
import { tellUser } from "./userLog";

/**
 * What state records beside the resource's own outputs, in one place: the `timeouts` and
 * `settings` the program wrote, whether it adopts the resource, and which inputs it gave
 * (refreshedInputs.ts). `from` are the inputs (a create, an update, a partial failure, a
 * preview: {@link besideInputs}) or, for a read, the recorded outputs, with what they record
 * (`adopted` undefined where state of 0.1.0 records nothing: no output then, so that the next
 * `up` records it).
 */
function besideOutputs(from: Props, adopted: boolean | undefined, given: unknown): Props {
  return { timeouts: from.timeouts, settings: from.settings, [ADOPTED_KEY]: adopted, [GIVEN_INPUTS_KEY]: given };
}

/** {@link besideOutputs} of a create, an update, a partial failure or a preview: from the inputs. */
function besideInputs(news: Props): Props {
  return besideOutputs(news, adopts(news), givenInputs(news));
}

/**
 * Runs an operation within its `timeouts` (`ctx.limitMs` from now): every request, retry and
 * wait of the client it makes ends by then (client/deadline.ts), whatever the client's own
 * retry deadline (two minutes) would allow.
 */
function bounded<T>(ctx: OperationContext, run: (ctx: OperationContext) => Promise<T>): Promise<T> {
  return withinDeadline(Date.now() + ctx.limitMs, () => run(ctx));
}

/** How long the operation `doing` (`creating ...`, a read waits as an update) could wait, from `timeouts`; undefined when unreadable. */
function timingOf(ctx: ProviderContext, doing: string, timeouts: TimeoutsInput | undefined): OperationTiming | undefined {
  const timeout = timeoutOf(doing);
  try {
    return { timeout, ms: ctx.timeoutMs(timeouts, timeout) };
  } catch {
    return undefined;
  }
}

/** The `timeouts` an `operation` runs with: the resource's (`own`), its `operation` bounded by the engine's `engineSeconds`. */
function effectiveTimeouts(own: unknown, operation: TimedOperation, engineSeconds: number | undefined): TimeoutsInput | undefined {
  return sharedOf({ timeouts: boundedTimeouts(own, operation, engineSeconds ?? 0) }).timeouts;
}

/** The core of one resource type, from its definition: see the module comment. */
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
  /** The rule of a readable value of each replacing property read from the live resource, from its output's declaration. */
  const readable = readableRules(schema);
  /** The resource's own `timeouts` in `props`: none where the schema takes none (the engine's `customTimeouts` alone then). */
  const ownTimeouts = (props: Props): unknown => ("timeouts" in schema.inputs ? props.timeouts : undefined);
  /** Whether state's `settings` must be the provider's: the schema takes none, so a program cannot say them. */
  const settingsServed = !("settings" in schema.inputs);
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
    const unread = unreadablyRecorded(olds, found.changed, readable);
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
  /** The error to hand to the engine: in the user's terms (`doing` is what the user did, within `timeouts`), scrubbed of secrets. */
  const scrub = (error: unknown, ctx: ProviderContext, doing: string, timeouts: TimeoutsInput | undefined, ...props: Props[]): Error =>
    scrubbed(inUserTerms(error, doing, timingOf(ctx, doing, timeouts)), [
      ctx.settings.apiKey,
      ...props.flatMap((p) => [...secretKeys.map((k) => p[k]), ...(definition.secretsOf?.(p) ?? [])]),
    ]);
  /**
   * A partial failure keeps the resource in state with the error's properties as its
   * outputs: they hold the inputs (`__provider` included, or later calls cannot load the
   * provider; secret inputs only where the error says the resource has them) and what state
   * records beside them.
   */
  const withInputs = (error: unknown, news: Props): unknown => {
    if (ResourceInitError.isInstance(error)) {
      const inputs = Object.fromEntries(Object.entries(news).filter(([k]) => !secretKeys.includes(k)));
      error.properties = withoutUndefined({ ...inputs, ...error.properties, ...besideInputs(news) });
    }
    return error;
  };
  /**
   * What a preview says the outputs will be: the recorded ones (none for a create), with
   * each output the program sets as an input of the same name taken from it (unknown where
   * it is not known yet), the rest of a create unknown.
   */
  const previewOutputs = (recorded: Props, news: Props): Props => {
    const creating = Object.keys(recorded).length === 0;
    const outs: Props = { ...recorded };
    for (const key of Object.keys(schema.outputs)) {
      const value = news[key];
      if (value !== undefined && value !== null) outs[key] = containsUnknown(value) ? UNKNOWN : value;
      else if (creating) outs[key] = UNKNOWN;
    }
    const projectId = news.projectId ?? settingsFor(sharedOf(news).settings).projectId;
    if (projectId !== undefined) outs.projectId = containsUnknown(projectId) ? UNKNOWN : projectId;
    return { ...outs, ...besideInputs(news) };
  };

  const provider: CoreProvider = {
    async configure(config): Promise<void> {
      configure(config);
      // What `check` and `diff` need is loaded by now: keep it compiled for the next process.
      saveCompileCache();
    },

    async check({ olds, news, owner, secretInputs: givenSecret }) {
      // The configuration's problems too, so that a preview reports them, all at once.
      // A `settings` input not known yet (a preview), or one field of it, stands for what it may set.
      const failures = [...configurationFailures(news.projectId, givenSettings(news.settings)), ...checkInputs(schema, news, givenSecret)];
      noteProgram();
      // A delete later in this run (a replacement's old half) must not delete what this program adopts,
      // nor what the state's inputs adopt (state of 0.1.0, whose outputs do not record it, proves it so).
      rememberAdopted(schema.kind, news.adoptId);
      rememberAdoptedInState(schema.kind, olds?.adoptId);
      if (failures.length === 0 && Object.keys(olds ?? {}).length === 0 && adopts(news) && !containsUnknown(news.adoptId)) {
        // Shown by `pulumi preview` and `up` (the engine prints the plugin's output): a create that is an adoption.
        tellUser(
          `${userOperation("create", schema.kind, owner).replace(/^creating /, "")} adopts ${schema.kind} ` +
            `${String(news.adoptId)} (adoptId) rather than creating one: the stack manages it from then on, and deleting it from the stack ` +
            "(destroy, a replacement, removing it from the program) leaves it in the cloud",
        );
      }
      return { inputs: failures.length > 0 ? news : withName(schema, olds ?? {}, news, owner), failures };
    },

    async diff({ id, olds, news, movingToNative = false }) {
      const ctx = providerContext("", false, sharedOf(news).settings);
      const { desired, changes, replaces, changed } = compare(olds, news, ctx);
      const byOption = replacedByOption(news[REPLACE_ON_CHANGES_KEY], changed, olds, desired);
      const replaced = [...new Set([...(replaces ?? []), ...byOption])];
      // State whose own `settings` a native program cannot say stops here when they are not the provider's.
      if (settingsServed) assertRecordedSettingsServed(schema.kind, id, olds, ctx.settings);
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

    async create({ news, owner, preview, engineTimeoutSeconds }) {
      if (preview) return { id: "", outs: previewOutputs({}, news) };
      const ctx = providerContext(owner, news[AUTONAMED_KEY] === true, sharedOf(news).settings);
      const timeouts = effectiveTimeouts(ownTimeouts(news), "create", engineTimeoutSeconds);
      try {
        const parsed = checkedInputs(schema, news, true);
        const { id, outs } = await bounded(operationContext(ctx, sharedOf(news).projectId, timeouts, "create"), (c) =>
          operations().create(parsed, c),
        );
        if (adopts(news)) rememberAdopted(schema.kind, id);
        return { id, outs: withoutUndefined({ ...outs, ...besideInputs(news) }) };
      } catch (e) {
        throw scrub(withInputs(e, news), ctx, userOperation("create", schema.kind, owner), timeouts, news);
      } finally {
        await remember(ctx);
      }
    },

    async read({ id, props, oldInputs }) {
      const recorded = props ?? {};
      const ctx = providerContext("", false, sharedOf(recorded).settings);
      const timeouts = sharedOf({ timeouts: ownTimeouts(recorded) }).timeouts;
      try {
        const found = await bounded(operationContext(ctx, sharedOf(recorded).projectId, timeouts, "update"), (c) =>
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
        const outs: Props = { ...found, ...besideOutputs(recorded, recordedAdoption(recorded), recorded[GIVEN_INPUTS_KEY]) };
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
        throw scrub(e, ctx, userOperation("read", schema.kind, undefined, id), timeouts, recorded);
      }
    },

    async update({ id, olds, news, owner, preview, engineTimeoutSeconds }) {
      if (preview) return { outs: previewOutputs(olds, news) };
      const ctx = providerContext("", false, sharedOf(news).settings);
      const doing = userOperation("update", schema.kind, owner, id);
      const timeouts = effectiveTimeouts(ownTimeouts(news), "update", engineTimeoutSeconds);
      let parsed: InputsOf<I>;
      try {
        parsed = checkedInputs(schema, news, false);
      } catch (e) {
        throw scrub(e, ctx, doing, timeouts, olds, news);
      }
      const compared = compare(olds, parsed, ctx);
      const changed = new Set([...compared.changed, ...compared.unread]);
      const recorded = (outs: Props): Props => recordedUnlessChanged(outs, olds, diffedKeys, changed);
      try {
        const [given, kept] = [sharedOf(news), sharedOf(olds)];
        const opCtx = operationContext(ctx, given.projectId ?? kept.projectId, timeouts, "update");
        const outs = await bounded(opCtx, (c) => operations().update(id, recordedOf(olds), parsed, c, changed));
        return { outs: withoutUndefined({ ...recorded(outs), ...besideInputs(news) }) };
      } catch (e) {
        if (ResourceInitError.isInstance(e)) e.properties = recorded(e.properties);
        throw scrub(withInputs(e, news), ctx, doing, timeouts, olds, news);
      } finally {
        await remember(ctx);
      }
    },

    async delete({ id, props, oldInputs, engineTimeoutSeconds }) {
      // State of 0.1.0 records adoption in the inputs alone: one whose recorded inputs adopt it stays in the cloud.
      if (oldInputs) rememberAdoptedInState(schema.kind, oldInputs.adoptId);
      const ctx = providerContext("", false, sharedOf(props).settings);
      const timeouts = effectiveTimeouts(ownTimeouts(props), "delete", engineTimeoutSeconds);
      const doing = userOperation("delete", schema.kind, undefined, id);
      let decision;
      try {
        decision = deleteDecision(schema.kind, id, `${schema.kind} ${id}`, props, ctx.settings.ownership);
      } catch (e) {
        throw scrub(e, ctx, doing, timeouts, props);
      }
      if (!decision.delete) {
        tellUser(decision.why);
        return;
      }
      try {
        await bounded(operationContext(ctx, sharedOf(props).projectId, timeouts, "delete"), (c) =>
          operations().delete(id, recordedOf(props), c),
        );
      } catch (e) {
        throw scrub(e, ctx, doing, timeouts, props);
      } finally {
        await remember(ctx);
      }
    },
  };
  // Counted while under way: a process whose engine is gone ends once they have (engineWatch.ts).
  return trackedOperations(provider);
}
