#!/usr/bin/env node
/**
 * `pulumi-resource-clouddb`: the native provider plugin. The engine starts it with its own
 * address as the last argument (after flags such as `--logtostderr` and `-v=9`), and reads
 * the port it serves on from its first line of standard output.
 *
 * @packageDocumentation
 */
import { endWhenEngineGone } from "../framework/engineWatch";
import { EngineLog, routeConsole, STDERR, type LogSink } from "./engineLog";
import { ClouddbProvider } from "./provider";
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
  const { port } = await listen(providerService(new ClouddbProvider(log), useEngine));
  process.stdout.write(`${port}\n`);
  // The engine gone (its pipe on standard input ended): end every wait, then exit (framework/engineWatch.ts).
  endWhenEngineGone();
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`pulumi-resource-clouddb: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
