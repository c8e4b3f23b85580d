/**
 * What a resource's URN says (`urn:pulumi:<stack>::<project>::<parent$type>::<name>`): its
 * type token, and the owner the framework's create journal keys a create by, which the
 * TypeScript SDK sends as the `__owner` input and the native plugin reads from the URN.
 */

/** The parts of a URN; empty strings where it is not one. */
export interface UrnParts {
  readonly stack: string;
  readonly project: string;
  /** The resource's own type token (`clouddb:index:Service`), without its parents'. */
  readonly type: string;
  readonly name: string;
}

/** The parts of `urn`. */
export function urnParts(urn: string): UrnParts {
  const m = /^urn:pulumi:(.*?)::(.*?)::(.*?)::(.*)$/s.exec(urn);
  if (!m) return { stack: "", project: "", type: "", name: "" };
  const [, stack, project, qualified, name] = m;
  return { stack, project, type: qualified.split("$").pop() ?? "", name };
}

/**
 * The owner of a create of resource `urn` of kind `kind`: `<project>/<stack>/clouddb.<Kind>/<name>`,
 * the same string the TypeScript SDK writes, so that a create the dynamic provider left
 * unfinished is taken over by the native one after a migration (framework/journal.ts).
 */
export function ownerOf(urn: string, kind: string): string {
  const { project, stack, name } = urnParts(urn);
  return `${project}/${stack}/clouddb.${kind}/${name}`;
}
