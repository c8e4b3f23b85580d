/**
 * A resource type as its definition file gives it: its schema, how `diff` sees it, and the
 * operations it runs against the API (typed on both sides). The core (framework/core.ts)
 * serves it to both hosts.
 */
import type { KindLookups } from "./kindLookups";
import type { OperationContext, Recorded } from "./operationContext";
import type { InputsOf, InputSpecs, OutputSpecs, OutputsOf, Props, ResourceSchema } from "./schema";

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
  /** Values that must never appear in an error message, besides the API key and secret inputs. */
  secretsOf?(props: Props): unknown[];
  /** Its lookup functions, and how `clouddb-import` lists it (framework/kindLookups.ts); none without. */
  readonly lookups?: KindLookups<unknown>;
  /** Loads the operations (and with them the API client). */
  operations(): ResourceOperations<I, O>;
}
