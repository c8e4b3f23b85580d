/**
 * What every resource type has, added to each definition by {@link resourceSchema}: the
 * inputs `projectId`, `adoptId`, `timeouts` and `settings`, and the output `projectId`.
 */
import { z } from "zod";
import type { CrossRule } from "../framework/check";
import {
  optionalInput,
  outputsReadFrom,
  type InputSpecs,
  type NamedType,
  type OutputSpecs,
  type ResourceSchema,
} from "../framework/schema";
import * as v from "./values";

/** `projectId`: the project of the resource. */
const projectIdInput = optionalInput(v.projectId, {
  change: "replace",
  doc: "Project; defaults to `clouddb:projectId`.",
});

/**
 * `timeouts`: how long operations may wait (the SDK turns Pulumi's `customTimeouts`, which never
 * reach a dynamic provider, into it). Not the native plugin's: the engine sends it `customTimeouts`.
 */
const timeoutsInput = optionalInput(v.timeouts, {
  change: "in-place",
  doc: "How long operations may wait. A change records the new timeouts and sends nothing.",
  sdkType: "Timeouts",
  nativeInstead: "the `customTimeouts` resource option (its create, update and delete durations reach the provider with each operation)",
});

/**
 * `settings`: the API the resource is in, in place of the stack's configuration: how one
 * program manages several projects or API keys. Secret as a whole (it holds the key); kept
 * among the outputs, because `read` and `delete` receive only those. Not the native plugin's:
 * an explicit provider instance does the same there.
 */
const settingsInput = optionalInput(v.providerSettings, {
  change: "in-place",
  secret: true,
  doc: "The API this resource is in, in place of the stack's `clouddb:apiUrl`, `clouddb:apiKey` and `clouddb:projectId` (secret). A change records the new settings and sends nothing.",
  sdkType: "ProviderSettings",
  nativeInstead:
    "an explicit provider with those settings (`new clouddb.Provider(name, { apiUrl, apiKey, projectId })`, given as the `provider` resource option)",
});

/** `adoptId`: an existing resource to take over at create, instead of making one. */
function adoptIdInput<S extends z.ZodType>(idSchema: S, what: string) {
  return optionalInput(idSchema, {
    change: "create-only",
    doc:
      `Id of an existing ${what} to take over instead of creating one; its fixed properties must match the program. ` +
      "While it is set, the stack never deletes the resource: destroy, a replacement or removing it from the program leave it in the cloud " +
      "(as `retainOnDelete` does). Removing it hands the resource to the stack (an update that sends nothing).",
  });
}

/** What every resource's outputs read from: at least the project the resource is in. */
export interface InProject {
  /** The project of the resource. */
  readonly projectId: string;
}

/** The output `projectId`. */
const projectIdOutput = outputsReadFrom<InProject>()(z.string(), { doc: "The project.", from: (s) => s.projectId });

/** The inputs {@link resourceSchema} adds. */
export type CommonInputs<A extends z.ZodType> = {
  readonly projectId: typeof projectIdInput;
  readonly adoptId: ReturnType<typeof adoptIdInput<A>>;
  readonly timeouts: typeof timeoutsInput;
  readonly settings: typeof settingsInput;
};

/** The names of the inputs {@link resourceSchema} adds to every kind's own. */
export const COMMON_INPUT_NAMES: readonly (keyof CommonInputs<z.ZodType>)[] = ["projectId", "adoptId", "timeouts", "settings"];

/** The outputs {@link resourceSchema} adds. */
export type CommonOutputs = { readonly projectId: typeof projectIdOutput };

/** What a resource declares; {@link resourceSchema} adds the common inputs and outputs. */
export interface ResourceDeclaration<I extends InputSpecs, O extends OutputSpecs<never>, A extends z.ZodType> {
  readonly kind: string;
  readonly doc: string;
  readonly example: string;
  /** The resource's own inputs (before `projectId`, `adoptId` and `timeouts`). */
  readonly inputs: I;
  /** What `adoptId` takes: the id's schema, and what it names, for its documentation. */
  readonly adopt: { readonly id: A; readonly what: string };
  /** The resource's own outputs (`projectId` follows the id output). */
  readonly outputs: O;
  readonly idOutput: keyof O & string;
  readonly lookup: ReadonlyArray<keyof (I & CommonInputs<A>) & string>;
  readonly cross?: readonly CrossRule[];
  readonly namedTypes?: Readonly<Record<string, NamedType>>;
}

/** Declares a resource schema, adding the common inputs and outputs and keeping their exact types. */
export function resourceSchema<I extends InputSpecs, O extends OutputSpecs<never>, A extends z.ZodType>(
  declaration: ResourceDeclaration<I, O, A>,
): ResourceSchema<I & CommonInputs<A>, O & CommonOutputs> {
  const { adopt, inputs, outputs, ...rest } = declaration;
  const common: CommonInputs<A> = {
    projectId: projectIdInput,
    adoptId: adoptIdInput(adopt.id, adopt.what),
    timeouts: timeoutsInput,
    settings: settingsInput,
  };
  // `projectId` follows the id output, as the SDK lists them.
  const ordered = Object.assign({ [rest.idOutput]: outputs[rest.idOutput] }, { projectId: projectIdOutput }, outputs);
  return { ...rest, inputs: { ...inputs, ...common }, outputs: ordered };
}
