/**
 * A harness checkpoint (tests/upgrade's fixtures: the state a stack had under a release) as
 * the deployment `pulumi stack import` takes: the stack, the dynamic providers' default
 * provider, and every resource under it, secrets as plaintext secrets (the CLI encrypts
 * them on import).
 */
import { randomUUID } from "crypto";
import type { Checkpoint } from "../../../harness/checkpoint";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** `props` with the `secret` keys as plaintext secrets. */
function withSecrets(props: Record<string, unknown>, secret: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, secret.includes(k) ? { [SIG]: SECRET_SIG, plaintext: JSON.stringify(v) } : v]),
  );
}

/** The deployment of `c`, in the manifest and secrets provider of `exported` (a `pulumi stack export` of the new, empty stack). */
export function deploymentOf(c: Checkpoint, exported: { version: number; deployment: Record<string, unknown> }): unknown {
  const stack = c.components.find((x) => x.type === "pulumi:pulumi:Stack");
  if (!stack) throw new Error("the checkpoint has no stack resource");
  const providerUrn = `urn:pulumi:${c.stack}::${c.project}::pulumi:providers:pulumi-nodejs::default`;
  const providerId = randomUUID();
  const resources = [
    { urn: stack.urn, custom: false, type: stack.type, outputs: withSecrets(c.stackOutputs, c.stackSecretOutputs) },
    { urn: providerUrn, custom: true, id: providerId, type: "pulumi:providers:pulumi-nodejs", parent: stack.urn, inputs: {}, outputs: {} },
    ...c.resources.map((r) => ({
      urn: r.urn,
      custom: true,
      id: r.id,
      type: r.type,
      parent: stack.urn,
      provider: `${providerUrn}::${providerId}`,
      inputs: withSecrets(r.inputs, r.secretInputs),
      outputs: withSecrets(r.outputs, r.secretOutputs),
      additionalSecretOutputs: r.secretOutputs,
      dependencies: r.dependencies,
      propertyDependencies: r.propertyDependencies,
    })),
  ];
  return { version: exported.version, deployment: { ...exported.deployment, resources } };
}
