#!/usr/bin/env node
/**
 * `pulumi-resource-clouddb`: the native provider plugin. The engine starts it with its own
 * address as the last argument (after flags such as `--logtostderr` and `-v=9`), and reads
 * the port it serves on from its first line of standard output.
 *
 * It prints the port before it loads the provider (provider.ts: zod's schemas, the resource
 * types, the configuration's rules; half of what a start runs): what serving the port needs
 * (gRPC, the protocol's messages, the engine's log) is loaded first, the provider right after
 * the port is printed, while the engine connects, or by the first request that needs it if
 * that comes sooner (server.ts's {@link ProviderSource}), so no request is answered without
 * it. A provider that fails to load ends the plugin as a failed start does, its error on
 * standard error.
 *
 * @packageDocumentation
 */
import { endWhenEngineGone } from "../framework/engineWatch";
import { keepHeapFlat } from "../framework/heapUpkeep";
import { EngineLog, routeConsole, STDERR, type LogSink } from "./engineLog";
import type { ClouddbProvider } from "./provider";
import { listen, providerService } from "./server";

/** The engine's address: the last argument that is no flag, if any. */
export function engineAddress(argv: readonly string[]): string | undefined {
  const positional = argv.filter((a) => !a.startsWith("-"));
  return positional[positional.length - 1];
}

/** Starts the plugin: serves the provider, prints the port. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let sink: LogSink = STDERR;
  const useEngine = (address: string): void => {
    if (sink === STDERR) sink = new EngineLog(address);
  };
  const address = engineAddress(argv);
  if (address !== undefined) useEngine(address);
  const log: LogSink = { log: (...args) => sink.log(...args) };
  routeConsole(log);
  let provider: ClouddbProvider | undefined;
  const loaded = (): ClouddbProvider => {
    if (provider === undefined) {
      // Loaded here, not at the top: after the port is printed (see the module's description).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { ClouddbProvider: Provider } = require("./provider") as typeof import("./provider");
      provider = new Provider(log);
    }
    return provider;
  };
  const { port } = await listen(providerService(loaded, useEngine));
  process.stdout.write(`${port}\n`);
  setImmediate(() => {
    try {
      loaded();
    } catch (e) {
      failed(e);
    }
  });
  // The engine gone (its pipe on standard input ended): end every wait, then exit (framework/engineWatch.ts).
  endWhenEngineGone();
  // V8 sized for a process that keeps little (framework/heapUpkeep.ts).
  keepHeapFlat();
}

/** Ends a start that failed: its error on standard error, exit code 1. */
export function failed(e: unknown): never {
  process.stderr.write(`pulumi-resource-clouddb: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

if (require.main === module) main().catch(failed);
