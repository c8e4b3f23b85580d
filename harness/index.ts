/**
 * Test harness: runs Pulumi programs through the real dynamic-provider plugin over gRPC,
 * following the engine's rules (README.md in this folder). See {@link TestStack}.
 */
export { TestStack, REPO_ROOT } from "./stack";
export type { Program, PluginHandle } from "./stack";
export { PluginHost, ProviderError } from "./pluginHost";
export type { InitFailure, PluginHostOptions } from "./pluginHost";
export * from "./types";
export { REDACTED } from "./secrets";
export { until } from "./until";
export { alive } from "./processes";
export { loadProject } from "./project";
export type { PulumiProject } from "./project";
import { RefreshResult, UpResult } from "./types";

/** Throws an Error listing every error (and check failure) of `result`; returns `result` otherwise. */
export function expectNoErrors<T extends UpResult | RefreshResult>(result: T): T {
  const messages = result.errors.map((e) => (e.name ? `[${e.name}] ${e.message}` : e.message));
  if ("checkFailures" in result) {
    for (const f of result.checkFailures) messages.push(`[${f.name}] check failure: ${f.property}: ${f.reason}`);
  }
  if (messages.length > 0) throw new Error(`operation reported ${messages.length} error(s):\n${messages.join("\n")}`);
  return result;
}

/** Everything the engine printed during an operation, one line per diagnostic: scan it for secrets. */
export function printed(result: UpResult | RefreshResult): string {
  return result.diagnostics.map((d) => `${d.severity}: ${d.message}`).join("\n");
}
