/**
 * The serialized provider of each resource type: the text Pulumi stores as `__provider` in
 * every resource's inputs and outputs, and that its dynamic-provider process loads with
 * `requireFromString(text).handler()` (pulumi/pulumi sdk/nodejs/cmd/dynamic-provider
 * `getProvider`). Pulumi's own `dynamic.Resource` makes that text by serializing a provider
 * object, a closure per method (2.2 KB for ours, copied into every resource twice, and a
 * V8 inspector session in the program to make it); ours is the module the serializer would
 * have written for a provider that only forwards to the installed package, written once:
 * under 250 bytes, no credential, the same whatever the implementation, so code changes
 * never show as diffs and old state always runs the installed code.
 *
 * Its `require` resolves from the Pulumi program's directory: the package must be installed
 * there (it is a dependency of any program that uses it). When it cannot be loaded, the
 * first call fails with the loader's error and how to fix it.
 */

/** The `__provider` text of the resource type whose provider is `pulumi-clouddb/provider/<module>`. */
export function providerText(module: string): string {
  const path = JSON.stringify(`pulumi-clouddb/provider/${module}`);
  return (
    `exports.handler = () => { try { return require(${path}).provider; } ` +
    `catch (e) { throw new Error(e + "\\nInstall pulumi-clouddb in the program's node_modules.", { cause: e }); } };\n`
  );
}
