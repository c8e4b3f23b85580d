/**
 * Pulumi's own state (`pulumi stack export --show-secrets`, deployment version 3: pkg's
 * apitype DeploymentV3) read in the harness's terms, and a harness checkpoint written as one
 * (`pulumi stack import`), so that the real CLI and the model share fixtures and tests.
 */
import { randomUUID } from "crypto";
import type { Checkpoint } from "../checkpoint";
import { SECRET_SIG, SIG_KEY } from "../secrets";
import type { PendingOperation, StateResource } from "../types";

/** One resource of a deployment, as far as the harness reads it. */
export interface DeployedResource {
  urn: string;
  custom?: boolean;
  delete?: boolean;
  id?: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  protect?: boolean;
  external?: boolean;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  provider?: string;
  initErrors?: string[];
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  taint?: boolean;
  pendingReplacement?: boolean;
  additionalSecretOutputs?: string[];
}

/** A deployment as `pulumi stack export` writes it. */
export interface Deployment {
  version: number;
  deployment: {
    manifest?: unknown;
    secrets_providers?: unknown;
    resources?: DeployedResource[];
    pending_operations?: { resource: DeployedResource; type: string }[];
  };
}

function isSecret(v: unknown): v is { plaintext?: string; ciphertext?: string } {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** A value with its secrets unwrapped (`--show-secrets`: each holds its plaintext JSON). */
function unwrap(v: unknown): unknown {
  if (isSecret(v)) return v.plaintext === undefined ? "[secret]" : unwrap(JSON.parse(v.plaintext));
  if (Array.isArray(v)) return v.map(unwrap);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  return v;
}

/** A value with the top-level keys in `secret` wrapped as plaintext secrets, as `pulumi stack import` takes them. */
function wrap(props: Record<string, unknown>, secret: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, secret.includes(k) ? { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) } : v]),
  );
}

/** Whether the URN is a program's custom resource (not the stack, not a provider). */
function isManaged(r: DeployedResource): boolean {
  return r.custom === true && !r.type.startsWith("pulumi:providers:") && r.external !== true;
}

/** The URN's name. */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** A deployment's managed custom resources, in the harness's terms. */
export function resourcesOf(d: Deployment): StateResource[] {
  return (d.deployment.resources ?? []).filter(isManaged).map((r) => {
    const outputs = r.outputs ?? {};
    const initErrors = r.initErrors ?? [];
    return {
      urn: r.urn,
      type: r.type,
      name: nameOf(r.urn),
      id: r.id ?? "",
      inputs: unwrap(r.inputs ?? {}) as Record<string, unknown>,
      outputs: unwrap(outputs) as Record<string, unknown>,
      secretOutputs: Object.keys(outputs).filter((k) => isSecret(outputs[k])),
      dependencies: r.dependencies ?? [],
      propertyDependencies: r.propertyDependencies ?? {},
      initErrors,
      ...(initErrors.length > 0 ? { initFailed: true } : {}),
      ...(r.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      ...(r.protect ? { protect: true } : {}),
      ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(r.delete ? { pendingDelete: true } : {}),
      ...(r.taint ? { taint: true } : {}),
      ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
    };
  });
}

/** A deployment's read (external) resources. */
export function readsOf(d: Deployment): { name: string; id: string; outputs: Record<string, unknown> }[] {
  return (d.deployment.resources ?? [])
    .filter((r) => r.external === true && !r.type.startsWith("pulumi:providers:"))
    .map((r) => ({ name: nameOf(r.urn), id: r.id ?? "", outputs: unwrap(r.outputs ?? {}) as Record<string, unknown> }));
}

/** A deployment's pending creates. */
export function pendingOf(d: Deployment): PendingOperation[] {
  return (d.deployment.pending_operations ?? []).map((p) => ({
    urn: p.resource.urn,
    type: p.resource.type,
    inputs: unwrap(p.resource.inputs ?? {}) as Record<string, unknown>,
    op: "creating",
  }));
}

/** The stack's outputs (unwrapped) and the names of the secret ones. */
export function stackOutputsOf(d: Deployment): { outputs: Record<string, unknown>; secret: string[] } {
  const stack = (d.deployment.resources ?? []).find((r) => r.type === "pulumi:pulumi:Stack");
  const outs = stack?.outputs ?? {};
  return { outputs: unwrap(outs) as Record<string, unknown>, secret: Object.keys(outs).filter((k) => isSecret(outs[k])) };
}

/**
 * A harness checkpoint as a deployment `pulumi stack import` takes: the stack resource, a
 * default `pulumi-nodejs` provider for the dynamic resources, and each resource with its
 * secrets as plaintext secrets (the CLI encrypts them on import). `base` is the stack's
 * current export (its manifest and secrets provider); `rewrite` changes the provider config
 * the checkpoint recorded (the API URL of the emulator a test runs).
 */
export function deploymentOf(
  checkpoint: Checkpoint,
  base: Deployment,
  rewrite: (config: Record<string, string>) => Record<string, string> = (c) => c,
): Deployment {
  const prefix = `urn:pulumi:${checkpoint.stack}::${checkpoint.project}::`;
  const stackUrn = `${prefix}pulumi:pulumi:Stack::${checkpoint.project}-${checkpoint.stack}`;
  const providerUrn = `${prefix}pulumi:providers:pulumi-nodejs::default`;
  const providerRef = `${providerUrn}::${randomUUID()}`;
  const outputs = wrap(checkpoint.stackOutputs, checkpoint.stackSecretOutputs);
  const config = checkpoint.providerConfig;
  const providerConfig = config === undefined ? {} : wrap(rewrite(config.values), config.secretKeys);
  const resources: DeployedResource[] = [
    { urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack", outputs },
    {
      urn: providerUrn,
      custom: true,
      id: providerRef.slice(providerRef.lastIndexOf("::") + 2),
      type: "pulumi:providers:pulumi-nodejs",
      // The stack config of the last up: the engine configures refresh and destroy from it.
      inputs: providerConfig,
      outputs: providerConfig,
    },
    ...checkpoint.resources.map((r) => ({
      urn: r.urn,
      custom: true,
      ...(r.pendingDelete ? { delete: true } : {}),
      id: r.id,
      type: r.type,
      inputs: wrap(r.inputs, r.secretInputs),
      outputs: wrap(r.outputs, r.secretOutputs),
      parent: stackUrn,
      ...(r.protect ? { protect: true } : {}),
      dependencies: r.dependencies,
      propertyDependencies: r.propertyDependencies,
      provider: providerRef,
      ...(r.initErrors.length > 0 ? { initErrors: r.initErrors } : {}),
      ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(r.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      ...(r.taint ? { taint: true } : {}),
      ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
    })),
  ];
  return {
    version: 3,
    deployment: {
      manifest: base.deployment.manifest,
      secrets_providers: base.deployment.secrets_providers,
      resources,
      ...(checkpoint.pendingOperations.length > 0
        ? {
            pending_operations: checkpoint.pendingOperations.map((p) => ({
              type: p.op,
              resource: { urn: p.urn, custom: true, type: p.type, inputs: p.inputs, parent: stackUrn, provider: providerRef },
            })),
          }
        : {}),
    },
  };
}
