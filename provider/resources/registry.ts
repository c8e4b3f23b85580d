/**
 * Every resource type, once: what the SDK generator (scripts/generate), the docs and the
 * tests iterate over. Adding a resource type is adding an entry here.
 */
import type { ResourceDefinition } from "../framework/resourceProvider";
import type { InputSpecs, OutputSpecs } from "../framework/schema";
import { readReplicaSetDefinition } from "./readReplicaSet/schema";
import { serviceDefinition, serviceNamedTypes } from "./service/schema";
import * as v from "./values";
import { vpcDefinition } from "./vpc/schema";
import { vpcPeeringDefinition } from "./vpcPeering/schema";

/** A resource type as the generator sees it. */
export interface RegisteredResource {
  /** The module the trampoline loads: `pulumi-clouddb/provider/<module>`. */
  readonly module: string;
  /** The file its schema lives in, named in the generated files. */
  readonly source: string;
  // Each entry keeps its own input and output types; the generator reads them as InputSpecs/OutputSpecs (specsOf).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly definition: ResourceDefinition<any, any>;
}

/** The resource types, in the order the docs list them. */
export const RESOURCES: readonly RegisteredResource[] = [
  { module: "vpc", source: "provider/resources/vpc/schema.ts", definition: vpcDefinition },
  { module: "vpcPeering", source: "provider/resources/vpcPeering/schema.ts", definition: vpcPeeringDefinition },
  { module: "service", source: "provider/resources/service/schema.ts", definition: serviceDefinition },
  { module: "readReplicaSet", source: "provider/resources/readReplicaSet/schema.ts", definition: readReplicaSetDefinition },
];

/** A type the SDK declares by name: from a schema, or written out. */
export type NamedType = { readonly doc: string } & ({ readonly schema: import("zod").ZodType } | { readonly tsType: string });

/** The types the SDK declares by name, shared by several resources' arguments and outputs. */
export const NAMED_TYPES: Record<string, NamedType> = {
  Size: { doc: 'CPU (millicores) or memory (GB): a number, or `"shared"` for the shared plan.', tsType: 'number | "shared"' },
  Timeouts: {
    doc:
      'How long a resource\'s operations may wait. Each is a number of seconds or a string such as `"90s"`, `"30m"`, `"1h30m"`. ' +
      "Unset ones default to the stack configuration (`clouddb:createTimeout`, `clouddb:updateTimeout`, `clouddb:deleteTimeout`), " +
      "which defaults to 30 minutes. Pulumi's own `customTimeouts` option never reaches a dynamic provider, so this input takes its place.",
    schema: v.timeouts,
  },
  ...serviceNamedTypes,
};

/** Every input and output spec of a registered resource, typed loosely for iteration. */
export function specsOf(r: RegisteredResource): { inputs: InputSpecs; outputs: OutputSpecs } {
  const { inputs, outputs } = r.definition.schema as { inputs: InputSpecs; outputs: OutputSpecs };
  return { inputs, outputs };
}
