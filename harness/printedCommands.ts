/**
 * Runs, on a test stack, a command a provider's message prints for the user to type, as the
 * user would: on a stack of the real CLI, in bash in the project's folder; on the model,
 * `pulumi config set [--path] <key> <value>` as the CLI stores it (a path builds an object,
 * which the engine hands to the dynamic providers as its JSON text). The words are split by
 * bash itself, so quoting counts as it does for the user.
 */
import { execFileSync } from "child_process";
import { parsePath } from "./propertyPath";
import type { TestStack } from "./stack";

/** The words of `commandLine` as bash reads them. */
export function shellWords(commandLine: string): string[] {
  const out = execFileSync("bash", ["-c", 'eval "set -- $1"; printf "%s\\0" "$@"', "words", commandLine], { encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

/** A stack of the real CLI, which runs a command line in its project's folder (cli/cliStack.ts). */
interface ShellStack {
  shell(commandLine: string): Promise<void>;
}

/** `value` with `segments` set to `leaf`, objects made where missing (what `pulumi config set --path` stores). */
function withPath(value: unknown, segments: readonly (string | number)[], leaf: string): unknown {
  if (segments.length === 0) return leaf;
  const [head, ...rest] = segments;
  const obj = value !== null && typeof value === "object" ? { ...(value as Record<string, unknown>) } : {};
  obj[String(head)] = withPath(obj[String(head)], rest, leaf);
  return obj;
}

/**
 * Runs `commandLine` on `stack`: the CLI runs it; the model stores what `pulumi config set`
 * stores.
 *
 * @throws Error for a command the model does not run (anything but `pulumi config set`)
 */
export async function runPrinted(stack: TestStack, commandLine: string): Promise<void> {
  if ("shell" in stack) return (stack as unknown as ShellStack).shell(commandLine);
  const words = shellWords(commandLine);
  const [pulumi, config, set, ...rest] = words;
  const path = rest[0] === "--path";
  const args = path ? rest.slice(1) : rest;
  if (pulumi !== "pulumi" || config !== "config" || set !== "set" || args.length !== 2) {
    throw new Error(`the model runs \`pulumi config set [--path] <key> <value>\` only, not: ${commandLine}`);
  }
  const [key, value] = args;
  if (!path) return stack.setConfig(key, value);
  const [namespace, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  const segments = parsePath(name);
  if (!segments || typeof segments[0] !== "string") throw new Error(`not a config path: ${key}`);
  const root = `${namespace}:${segments[0]}`;
  const current = stack.getConfig()[root];
  const old: unknown = current === undefined ? undefined : JSON.parse(current);
  stack.setConfig(root, JSON.stringify(withPath(old, segments.slice(1), value)));
}
