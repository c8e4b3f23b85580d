import type * as dynamic from "@pulumi/pulumi/dynamic";

/**
 * A dynamic provider that only forwards each method to the compiled implementation in
 * `pulumi-clouddb/provider/<kind>`, loaded with `require` when the method runs.
 *
 * Pulumi serializes this object into every resource's state (`__provider`) and runs the
 * text in its dynamic-provider process. Kept this small (every captured function costs
 * a wrapper in the serialized text, hence the terse forwarding arrows), the text is
 * under 2 KB, holds no credential, and stays the same when the implementation changes,
 * so code changes never show as diffs and old state always runs the installed code. The
 * `require` resolves from the Pulumi program's directory: the package must be installed
 * there (it is a dependency of any program that uses it). When it cannot be loaded, the
 * first call fails with the loader's error and how to fix it (about 140 bytes more text,
 * on one line because the serialized text keeps the compiled code's whitespace).
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions --
 * The serialized text must stay small and self-contained: it forwards untyped arguments to a
 * module it requires by name when a method runs. */
export function trampoline(kind: string): dynamic.ResourceProvider {
  type Any = any;
  // The module path as one captured string: shorter serialized text than capturing `kind`.
  const m = `pulumi-clouddb/provider/${kind}`;
  // prettier-ignore
  const p = (): Any => { try { return require(m).provider; } catch (e) { throw Error(`${e}\nInstall pulumi-clouddb in the program's node_modules.`, { cause: e }); } };
  return {
    configure: (...a: Any[]) => p().configure(...a),
    check: (...a: Any[]) => p().check(...a),
    diff: (...a: Any[]) => p().diff(...a),
    create: (...a: Any[]) => p().create(...a),
    read: (...a: Any[]) => p().read(...a),
    update: (...a: Any[]) => p().update(...a),
    delete: (...a: Any[]) => p().delete(...a),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions */
