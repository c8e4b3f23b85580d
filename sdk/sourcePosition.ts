/**
 * Where the engine records a resource as declared. Pulumi's `Resource` constructor takes the
 * call stack and skips its own two frames and one more, the resource's class (`new Bucket`),
 * expecting the program's call next (@pulumi/pulumi resource.ts `Resource.stackTrace(4)`);
 * the first frame left is the resource's `sourcePosition`, and all of them its `stackTrace`,
 * both stored in the checkpoint for every resource. Ours has three constructors between
 * `CustomResource` and the program (`ClouddbResource`, the class {@link resourceClass} makes,
 * the generated class), so without this the position was `sdk/construct.ts`, not the
 * program's line, and every resource's state held two frames more (about 190 bytes; issue 44).
 *
 * While our constructor runs Pulumi's, the stack a trace is made of leaves out this package's
 * constructors after the first one (which stands for the resource's class): a program's own
 * subclass of ours is kept, as Pulumi keeps any class between it and the call.
 */
import * as path from "path";

/** This package's SDK folder: the generated classes and construct.ts are in it. */
const SDK_DIR = __dirname;

/** Whether `site` is the constructor of a class of this package's SDK. */
function ours(site: NodeJS.CallSite): boolean {
  const file = site.getFileName();
  return site.isConstructor() && file !== undefined && file !== null && path.dirname(file) === SDK_DIR;
}

/** A frame as Node.js writes it in a trace (`fn (file:line:column)`): V8's own `CallSite#toString`. */
type Printable = NodeJS.CallSite & { toString(): string };

/** Node.js's own format of a trace, for when nothing else formats them. */
function formatted(error: Error, sites: NodeJS.CallSite[]): string {
  return `${String(error)}${sites.map((s) => `\n    at ${(s as Printable).toString()}`).join("")}`;
}

/**
 * Until the returned function is called, every stack trace made leaves out this package's
 * constructors after the first (see the module comment); any formatter already set (ts-node's
 * source maps) formats what is left. Called by our constructor before it calls Pulumi's.
 *
 * @returns `restore`: call it once Pulumi's constructor returned or threw (it puts the formatter back)
 * @internal
 */
export function atProgramPosition(): () => void {
  // The formatter set before (Node.js's own, or ts-node's): a plain function V8 calls unbound, as this one does; set back after.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const before = Error.prepareStackTrace;
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]): unknown => {
    const first = sites.findIndex(ours);
    const kept = first < 0 ? sites : sites.filter((s, i) => i <= first || !ours(s));
    return before === undefined ? formatted(error, kept) : before(error, kept);
  };
  return () => {
    Error.prepareStackTrace = before;
  };
}
