/**
 * What every operation of every kind is given besides its inputs, resolved once by the
 * framework: the resource's project, how long the operation may wait, and the outputs state
 * recorded, typed by the definition (Pulumi hands them over as untyped JSON).
 */
import { z } from "zod";
import type { OutputSpecs, OutputsOf, Props } from "./schema";
import type { ProviderContext } from "./settings";
import type { SettingsOverride } from "./settingsOverride";
import type { TimeoutsInput } from "./timeouts";

/** An operation that may wait, as the `timeouts` input names it. */
export type TimedOperation = keyof TimeoutsInput;

/** The provider context of one operation on one resource. */
export interface OperationContext extends ProviderContext {
  /**
   * The resource's project: its `projectId` input, else the one state recorded, else
   * `clouddb:projectId`.
   *
   * @throws ConfigurationError when none is set (read when first used)
   */
  readonly projectId: string;
  /** How long this operation may wait, in ms: the resource's `timeouts`, else the configured default. */
  readonly limitMs: number;
}

/** The context of `operation` on a resource whose project and timeouts are these (the inputs', else those recorded). */
export function operationContext(
  ctx: ProviderContext,
  projectInput: string | undefined,
  timeouts: TimeoutsInput | undefined,
  operation: TimedOperation,
): OperationContext {
  const limitMs = ctx.timeoutMs(timeouts, operation);
  let projectId: string | undefined;
  return Object.create(ctx, {
    projectId: { get: () => (projectId ??= ctx.projectOf(projectInput)), enumerable: true },
    limitMs: { value: limitMs, enumerable: true },
  }) as OperationContext;
}

/**
 * The outputs state recorded, as far as they read as the definition's outputs: state written
 * by an earlier version may lack an output, or hold one in another shape; either reads as
 * absent. `timeouts`, kept among the outputs by the framework, is read too.
 */
export type Recorded<O extends OutputSpecs> = Partial<OutputsOf<O>> & { readonly timeouts?: TimeoutsInput };

const duration = z.union([z.number(), z.string()]);
const timeoutsShape = z.object({ create: duration, update: duration, delete: duration }).partial();

/** What every resource's inputs and recorded outputs share: the project, the timeouts and the API settings (resources/common.ts). */
export interface Shared {
  readonly projectId?: string;
  readonly timeouts?: TimeoutsInput;
  readonly settings?: SettingsOverride;
}

const settingsShape = z.object({ apiUrl: z.string(), apiKey: z.string(), projectId: z.string() }).partial();
const sharedShape = z.object({
  projectId: z.string().optional().catch(undefined),
  timeouts: timeoutsShape.optional().catch(undefined),
  settings: settingsShape.optional().catch(undefined),
});

/** The project and timeouts of raw inputs or recorded outputs (absent when they do not read as such). */
export function sharedOf(props: Props | undefined): Shared {
  return sharedShape.parse(props ?? {});
}

/** The reader of recorded outputs for a definition's outputs (built once per kind). */
export function recordedReader<O extends OutputSpecs>(schema: { readonly outputs: O }): (props: Props) => Recorded<O> {
  const shape = Object.fromEntries(Object.entries(schema.outputs).map(([key, spec]) => [key, spec.schema.optional().catch(undefined)]));
  const reader = z.object({ ...shape, timeouts: timeoutsShape.optional().catch(undefined) });
  return (props) => reader.parse(props ?? {}) as Recorded<O>;
}
