import type * as pulumi from "@pulumi/pulumi";

/**
 * How long a resource's operations may wait. Each is a number of seconds or a string
 * such as `"90s"`, `"30m"`, `"1h30m"`. Unset ones default to the stack configuration
 * (`clouddb:createTimeout`, `clouddb:updateTimeout`, `clouddb:deleteTimeout`), which
 * defaults to 30 minutes. Pulumi's own `customTimeouts` option never reaches a dynamic
 * provider, so this input takes its place.
 */
export interface Timeouts {
  /** How long `create` waits for the resource to be ready. */
  create?: pulumi.Input<number | string>;
  /** How long `update` waits after each change. */
  update?: pulumi.Input<number | string>;
  /** How long `delete` waits for the resource to be gone. */
  delete?: pulumi.Input<number | string>;
}

/** Thrown by a resource's constructor when a required argument is missing. */
export class MissingArgumentError extends Error {
  /**
   * @param type the resource type, e.g. `clouddb.Vpc`
   * @param resourceName the resource's name in the program
   * @param argument the missing argument
   */
  constructor(
    readonly type: string,
    readonly resourceName: string,
    readonly argument: string,
  ) {
    super(`Missing required argument '${argument}' of ${type} "${resourceName}"`);
    this.name = "MissingArgumentError";
  }
}

/**
 * Throws {@link MissingArgumentError} for the first of `names` that `args` lacks.
 * Values that are Outputs count as present (they are checked by the provider).
 */
export function requireArguments(type: string, resourceName: string, args: object | undefined, names: string[]): void {
  for (const argument of names) {
    if (args === undefined || (args as Record<string, unknown>)[argument] === undefined) {
      throw new MissingArgumentError(type, resourceName, argument);
    }
  }
}
