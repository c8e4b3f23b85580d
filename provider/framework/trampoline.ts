/**
 * The serialized provider of each resource type: the text Pulumi stores as `__provider` in
 * every resource's inputs and outputs, and that its dynamic-provider process loads with
 * `requireFromString(text).handler()` (pulumi/pulumi sdk/nodejs/cmd/dynamic-provider
 * `getProvider`). Pulumi's own `dynamic.Resource` makes that text by serializing a provider
 * object, a closure per method (2.2 KB for ours, copied into every resource twice, and a
 * V8 inspector session in the program to make it); ours is the module the serializer would
 * have written for a provider that only forwards to the installed package, written once: one
 * expression (71 bytes for `service`), no credential, the same whatever the implementation,
 * so code changes never show as diffs and old state always runs the installed code.
 *
 * It is as short as it can be because the checkpoint holds it twice for every resource and
 * the engine writes the checkpoint after every step (issue 44). State written by 0.2.0 and
 * before holds a longer text (a `try` adding how to fix a failed load) that loads the same
 * module: both run the installed code, and the provider's `diff` never compares them.
 *
 * Its `require` resolves from the Pulumi program's directory: the package must be installed
 * there (it is a dependency of any program that uses it). When it cannot be loaded, the first
 * call fails with Node.js's `Cannot find module 'pulumi-clouddb/provider/<module>'`, which
 * names the package to install (README, "Getting started").
 */

/** The `__provider` text of the resource type whose provider is `pulumi-clouddb/provider/<module>`. */
export function providerText(module: string): string {
  return `exports.handler=()=>require(${JSON.stringify(`pulumi-clouddb/provider/${module}`)}).provider`;
}
