/**
 * Which {@link ProviderHost} serves a stack: the provider in process, or the real plugin
 * process (see {@link StackOptions.host}).
 */
import { InProcessHost, type InProcessHostOptions } from "./inProcessHost";
import { NativeHost } from "./nativeHost";
import { PluginHost } from "./pluginHost";
import type { ProviderHost } from "./providerHost";
import type { ProviderHostKind, StackOptions } from "./types";

/** What serves a stack's provider when its options do not say: `CLOUDDB_PROVIDER_HOST`, else in process. */
export function defaultHost(): ProviderHostKind {
  const chosen = process.env.CLOUDDB_PROVIDER_HOST;
  if (chosen === undefined || chosen === "") return "in-process";
  if (chosen === "plugin" || chosen === "in-process") return chosen;
  throw new Error(`CLOUDDB_PROVIDER_HOST is "${chosen}": it must be "plugin" or "in-process"`);
}

/** A new host of `kind` (not started yet), with the options a plugin process takes. */
export function newHost(kind: StackOptions["host"], options: InProcessHostOptions): ProviderHost {
  if (kind === "native") return new NativeHost(options);
  return kind === "plugin" ? new PluginHost(options) : new InProcessHost(options);
}
