/**
 * What Pulumi's resource options mean for our resources, decided in the program (the provider
 * never sees the options: the dynamic-provider host passes it inputs only).
 *
 * - `adoptId` makes the resource adopted: it is registered with `retainOnDelete`, so that no
 *   Pulumi operation deletes what the stack did not make (a destroy, the old half of any
 *   replacement, a delete-before-replace). Without it, `pulumi up --replace` of an adopted
 *   resource would adopt the same resource again and then delete it (the engine refuses a
 *   replacement for its own `import` option for the same reason: step_generator.go L1855-1878).
 * - `replaceOnChanges` reaches the provider's `diff` as the input `__replaceOnChanges`:
 *   the engine applies the option only to changed keys and detailed diffs, which the
 *   dynamic-provider host never returns (sdk/nodejs/cmd/dynamic-provider `diff`).
 * - `customTimeouts` become the `timeouts` input (the dynamic-provider host ignores the
 *   timeout the engine sends with each call); fields the `timeouts` argument sets win.
 */
import * as pulumi from "@pulumi/pulumi";
import { isDuration } from "../provider/framework/durations";
import { REPLACE_ON_CHANGES_KEY } from "../provider/framework/internalInputs";

/** The operations a `timeouts` input and Pulumi's `customTimeouts` both name. */
const TIMED = ["create", "update", "delete"] as const;

/** Thrown by a resource's constructor when its options contradict its arguments. */
export class ConflictingOptionsError extends Error {
  /** A stable code to match on. */
  readonly code = "CLOUDDB_CONFLICTING_OPTIONS";

  /**
   * @param type the resource type, e.g. `clouddb.Service`
   * @param resourceName the resource's name in the program
   * @param problem what conflicts and what to do
   */
  constructor(
    readonly type: string,
    readonly resourceName: string,
    problem: string,
  ) {
    super(`${type} "${resourceName}": ${problem}`);
    this.name = "ConflictingOptionsError";
  }
}

/** The property a `replaceOnChanges` path starts with (`haReplicas` of `haReplicas.replicaCount`, `*`). */
function head(path: string): string {
  return /^[^.[]*/.exec(path)?.[0] ?? "";
}

/**
 * The options and extra properties our resources need: `retainOnDelete` for an adopted
 * resource, `replaceOnChanges` carried as an input.
 *
 * @param changeable the inputs whose change updates or replaces the resource: each
 *   `replaceOnChanges` path must start with one of them, or be `*`
 * @throws ConflictingOptionsError for `retainOnDelete: false` beside `adoptId`, and for a
 *   `replaceOnChanges` path that names nothing that can change
 */
export function optionsFor(
  type: string,
  name: string,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions,
  changeable: readonly string[],
): { options: pulumi.CustomResourceOptions; props: Record<string, unknown> } {
  const props: Record<string, unknown> = {};
  let options = opts;
  if (args.adoptId !== undefined && !opts.id) {
    if (opts.retainOnDelete === false) {
      throw new ConflictingOptionsError(
        type,
        name,
        "adoptId adopts a resource the stack did not make, which Pulumi then never deletes; retainOnDelete: false asks the opposite. " +
          "Remove retainOnDelete, or remove adoptId once the resource is adopted to let the stack delete it.",
      );
    }
    options = { ...options, retainOnDelete: true };
  }
  const paths = opts.replaceOnChanges ?? [];
  for (const path of paths) {
    if (head(path) === "*" || changeable.includes(head(path))) continue;
    throw new ConflictingOptionsError(
      type,
      name,
      `replaceOnChanges ${JSON.stringify(path)} names no property whose change updates or replaces it; one of: ${changeable.join(", ")} (or "*")`,
    );
  }
  if (paths.length > 0) props[REPLACE_ON_CHANGES_KEY] = [...paths];
  const custom = opts.customTimeouts;
  const fromOption: Record<string, string> = {};
  for (const op of TIMED) {
    const value = custom?.[op];
    if (value === undefined || value === "") continue;
    if (!isDuration(value)) {
      throw new ConflictingOptionsError(
        type,
        name,
        `customTimeouts.${op} ${JSON.stringify(value)} is not a duration: give a string such as "90s", "30m" or "1h30m"`,
      );
    }
    fromOption[op] = value;
  }
  if (Object.keys(fromOption).length > 0) {
    props.timeouts =
      args.timeouts === undefined
        ? fromOption
        : pulumi.output(args.timeouts).apply((given) => ({ ...fromOption, ...(given as Record<string, unknown> | undefined) }));
  }
  return { options, props };
}
