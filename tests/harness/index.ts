/**
 * Test harness: runs Pulumi programs through the real dynamic-provider plugin over gRPC,
 * following the engine's step rules. See {@link TestStack}.
 */
export { TestStack, REPO_ROOT } from "./stack";
export type { Program } from "./stack";
export { PluginHost, ProviderError } from "./pluginHost";
export type { InitFailure, PluginHostOptions } from "./pluginHost";
export * from "./types";
export { REDACTED } from "./secrets";
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
