/**
 * A `pulumi import --file` document for what exists in a project: every VPC, peering,
 * service and read replica set (or those a filter keeps), each with `inputs` and `outputs`
 * (Pulumi CLI 3.254 and later take both and then skip the provider's Read, which dynamic
 * providers cannot serve: pulumi/pulumi#3550, #23984). The inputs are what a program
 * declaring the resource as it is would give, so that after the import an `up` of that
 * program shows no change; the outputs are what the provider's read returns. Both carry
 * the SDK's serialized provider (`__provider`), as Pulumi stores it.
 */
import { hasStatusClass } from "../../contract/statuses";
import type { ClouddbClient } from "../client";
import { ADOPTED_KEY } from "../framework/adoption";
import { checkInputs } from "../framework/check";
import { GIVEN_INPUTS_KEY, givenInputs } from "../framework/refreshedInputs";
import { unimportable } from "../framework/errors";
import { inputsReadBack, outputsFrom } from "../framework/schema";
import { readReplicaSetSchema } from "../resources/readReplicaSet/definition";
import { RESOURCES } from "../resources/registry";
import { serviceOutputs } from "../resources/service/definition";
import { vpcSchema } from "../resources/vpc/definition";
import { vpcPeeringSchema } from "../resources/vpcPeering/definition";
import { providerText } from "../framework/trampoline";

/** One resource of the document (`importSpec` of pkg/cmd/pulumi/operations/import.go). */
export interface ImportResource {
  /** `pulumi-nodejs:dynamic/clouddb:<Kind>`. */
  type: string;
  /** The logical name in the program. */
  name: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** The document `pulumi import --file` reads. */
export interface ImportDocument {
  resources: ImportResource[];
}

/** What to put in the document. */
export interface ImportFilter {
  /** Resource kinds to keep (`Vpc`, `VpcPeering`, `Service`, `ReadReplicaSet`). @default all */
  kinds?: readonly string[];
  /** Ids to keep. @default all */
  ids?: readonly string[];
}

/** A logical name from an API name: lowercase letters, digits and dashes, made unique. */
function logicalName(wanted: string, taken: Set<string>): string {
  const base =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "resource";
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

/** The inputs a program declaring the resource as it is would give (framework/schema.ts `inputsReadBack`). */
function inputsFrom(kind: string, outputs: Record<string, unknown>): Record<string, unknown> {
  const r = RESOURCES.find((x) => x.definition.schema.kind === kind)!;
  return inputsReadBack(r.definition.schema, outputs);
}

/** Drops every `undefined`, as Pulumi's state has none. */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/**
 * Reads the project and builds the document: VPCs, their peerings, services, their
 * replica sets, in that order (dependencies first). A resource the API does not show as a
 * program could declare it (an input read back that `check` refuses: a value its answer does
 * not show readably, contract/readable.ts) is left out, and `leftOut` is told why.
 */
export async function importDocument(
  api: ClouddbClient,
  projectId: string,
  filter: ImportFilter = {},
  leftOut: (why: string) => void = () => undefined,
): Promise<ImportDocument> {
  const keep = (kind: string, id: string) => (!filter.kinds || filter.kinds.includes(kind)) && (!filter.ids || filter.ids.includes(id));
  const providers = Object.fromEntries(RESOURCES.map((r) => [r.definition.schema.kind, providerText(r.module)]));
  const taken = new Set<string>();
  const resources: ImportResource[] = [];
  const add = (kind: string, id: string, name: string, outputs: Record<string, unknown>): void => {
    // Imported: the stack takes it over whole (`pulumi import`), so destroy deletes it.
    const read = defined({ ...outputs, __provider: providers[kind], [ADOPTED_KEY]: false });
    const inputs = inputsFrom(kind, read);
    const r = RESOURCES.find((x) => x.definition.schema.kind === kind)!;
    const refused = unimportable(`${kind} ${id}`, checkInputs(r.definition.schema, inputs));
    if (refused !== undefined) {
      leftOut(refused);
      return;
    }
    resources.push({
      type: `pulumi-nodejs:dynamic/clouddb:${kind}`,
      name: logicalName(name, taken),
      id,
      inputs: defined({ ...inputs, __provider: providers[kind] }),
      // The inputs given, as a create records them (framework/refreshedInputs.ts): a refresh then shows exactly the drift.
      outputs: { ...read, [GIVEN_INPUTS_KEY]: givenInputs(inputs) },
    });
  };
  const opts = { projectId };
  for (const vpc of (await api.perform("listVpcs", opts)).items) {
    if (keep("Vpc", vpc.id)) add("Vpc", vpc.id, vpc.name ?? vpc.id, { ...outputsFrom(vpcSchema, { live: vpc, projectId }) });
    for (const p of (await api.perform("listPeerings", { vpc: vpc.id, ...opts })).items) {
      if (keep("VpcPeering", p.id))
        add("VpcPeering", p.id, `${vpc.name ?? vpc.id}-peering-${p.id}`, {
          ...outputsFrom(vpcPeeringSchema, { live: p, vpcId: vpc.id, projectId }),
        });
    }
  }
  for (const s of (await api.perform("listServices", opts)).items) {
    if (hasStatusClass("service", s.status, "ending", "gone")) continue;
    if (keep("Service", s.service_id)) add("Service", s.service_id, s.name ?? s.service_id, { ...serviceOutputs(s) });
    for (const rs of s.read_replica_sets ?? []) {
      if (keep("ReadReplicaSet", rs.id))
        add("ReadReplicaSet", rs.id, `${s.name ?? s.service_id}-${rs.name ?? rs.id}`, {
          ...outputsFrom(readReplicaSetSchema, { live: rs, serviceId: s.service_id, projectId }),
        });
    }
  }
  return { resources };
}
