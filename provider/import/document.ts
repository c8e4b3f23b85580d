/**
 * A `pulumi import --file` document for what exists in a project: every resource of each kind
 * that declares its lookups (framework/kindLookups.ts; VPCs, peerings, services and read
 * replica sets), or those a filter keeps, each with `inputs` and `outputs`
 * (Pulumi CLI 3.254 and later take both and then skip the provider's Read, which dynamic
 * providers cannot serve: pulumi/pulumi#3550, #23984). The inputs are what a program
 * declaring the resource as it is would give, so that after the import an `up` of that
 * program shows no change; the outputs are what the provider's read returns. Both carry
 * the SDK's serialized provider (`__provider`), as Pulumi stores it.
 */
import type { ClouddbClient } from "../client";
import { ADOPTED_KEY } from "../framework/adoption";
import { checkInputs } from "../framework/check";
import { GIVEN_INPUTS_KEY, givenInputs } from "../framework/refreshedInputs";
import { unimportable } from "../framework/errors";
import type { KindLookups, LookupScope } from "../framework/kindLookups";
import { inputsReadBack } from "../framework/schema";
import { specsOf, type RegisteredResource } from "../resources/registration";
import { RESOURCES } from "../resources/registry";
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

/** A kind the document lists: its registration and declared lookups. */
interface Listed {
  readonly r: RegisteredResource;
  readonly lookups: KindLookups<unknown>;
}

/** The input of `r` that names its parent (`vpcId` of a peering: its schema's `lookup` besides `projectId`), if any. */
const parentInput = (r: RegisteredResource): string | undefined => r.definition.schema.lookup.find((key: string) => key !== "projectId");

/** True when an input of `r` refers to the kind `other` (names its id output): `other` is to be imported first. */
const refersTo = (r: RegisteredResource, other: RegisteredResource): boolean =>
  r !== other && Object.hasOwn(specsOf(r).inputs, other.definition.schema.idOutput);

/** The kinds with no parent, each after those its inputs refer to (a VPC before a service, which names one by `vpcId`). */
function roots(listed: readonly Listed[]): Listed[] {
  const left = listed.filter((k) => parentInput(k.r) === undefined);
  const ordered: Listed[] = [];
  while (left.length > 0) {
    const next = left.findIndex((k) => !left.some((other) => refersTo(k.r, other.r)));
    ordered.push(...left.splice(next === -1 ? 0 : next, 1));
  }
  return ordered;
}

/**
 * Reads the project and builds the document: each kind's resources and, after each, those
 * under it (VPCs, their peerings, services, their replica sets: dependencies first). A resource the API does not show as a
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
  const listed = RESOURCES.flatMap((r): Listed[] => (r.definition.lookups ? [{ r, lookups: r.definition.lookups }] : []));
  const under = (parent: Listed) => listed.filter((k) => parentInput(k.r) === parent.r.definition.schema.idOutput);
  const list = async (k: Listed, scope: LookupScope, parent: string | undefined): Promise<void> => {
    const kind = k.r.definition.schema.kind;
    for (const live of await k.lookups.all.read(api, scope)) {
      if (k.lookups.imported?.importable?.(live) === false) continue;
      const id = k.lookups.idOf(live);
      const name = k.lookups.imported?.name(live, parent) ?? k.lookups.named(live);
      if (keep(kind, id)) add(kind, id, name, { ...k.lookups.outputs(live, scope) });
      for (const child of under(k)) await list(child, { ...scope, [k.r.definition.schema.idOutput]: id }, name);
    }
  };
  for (const k of roots(listed)) await list(k, { projectId }, undefined);
  return { resources };
}
