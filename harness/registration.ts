/**
 * What the program sends the engine (decoded RegisterResourceRequest and ReadResourceRequest),
 * what the engine answers, and how it names resources (URNs and aliases:
 * pkg/resource/deploy/step_generator.go `collapseAliasToUrn` L504-544, v3.248.0).
 */
import { JsonObject } from "./protos";

/** Root stack type token. */
export const STACK_TYPE = "pulumi:pulumi:Stack";

/** An alias of a registration: a whole URN, or a spec whose unset parts are the resource's own. */
export interface AliasSpec {
  urn?: string;
  name?: string;
  type?: string;
  stack?: string;
  project?: string;
  parentUrn?: string;
  noParent?: boolean;
}

/** A RegisterResourceRequest, decoded. `object` still holds secret markers. */
export interface RegisterRequest {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  object: JsonObject;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  additionalSecretOutputs: string[];
  /** Undefined when the program did not set the option (`deleteBeforeReplaceDefined` false). */
  deleteBeforeReplace?: boolean;
  /** Undefined when the program did not set the option. */
  protect?: boolean;
  /** Undefined when the program did not set the option. */
  retainOnDelete?: boolean;
  importId: string;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  /** The `aliases` option. @default [] */
  aliases?: AliasSpec[];
}

/** What the monitor answers to a registration: outputs with secret markers. */
export interface RegisterResponse {
  urn: string;
  id: string;
  object: JsonObject;
  /** With `--continue-on-error`, a failed or skipped step answers the program instead of failing it (st `Fail`/`Skip`). @default "success" */
  result?: "success" | "fail" | "skip";
}

/** A ReadResourceRequest (`Resource.get`), decoded. */
export interface ReadRequest {
  type: string;
  name: string;
  parent: string;
  id: string;
  properties: JsonObject;
  dependencies: string[];
  additionalSecretOutputs: string[];
}

/** An error that fails a registration; the monitor turns it into an RPC error. */
export class RegistrationError extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = "RegistrationError";
  }
}

/** The URN the engine gives a resource (parents other than the root stack prefix the type). */
export function urnOf(stack: string, project: string, type: string, name: string, parent: string): string {
  let qualified = type;
  if (parent) {
    const parentType = parent.split("::")[2] ?? "";
    if (parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
  }
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

/** The URN an alias stands for (`collapseAliasToUrn`: unset parts are the resource's own; a root-stack parent is none). */
export function aliasUrn(alias: AliasSpec, stack: string, project: string, req: Pick<RegisterRequest, "type" | "name" | "parent">): string {
  if (alias.urn) return alias.urn;
  const parent = alias.noParent ? "" : (alias.parentUrn ?? req.parent);
  return urnOf(alias.stack || stack, alias.project || project, alias.type || req.type, alias.name || req.name, parent);
}

/** Whether `urn` is in a set of URNs or resource names (the last part of a URN). */
export function names(set: ReadonlySet<string>, urn: string): boolean {
  return set.has(urn) || set.has(urn.slice(urn.lastIndexOf("::") + 2));
}
