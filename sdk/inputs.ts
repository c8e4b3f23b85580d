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
