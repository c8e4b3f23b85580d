/**
 * Messages to the engine's log, under the resource they are about: what the CLI shows
 * beneath that resource (`pulumi up`, `preview`, `destroy`), rather than as the plugin's
 * anonymous standard error. The engine passes its address as the plugin's argument (and in
 * Handshake); {@link EngineLog} calls its `Log` RPC.
 *
 * The core tells the user what it does through its log sink (framework/userLog.ts): an
 * adoption, a delete that leaves an adopted resource in the cloud, a create taken over after
 * an interruption. {@link routeConsole} makes that sink send each message to the engine under
 * the resource whose call is running (each call runs {@link withinResource}), so the shared
 * code says it once, for both hosts, and nothing is parsed back from text. Any other
 * `console.error` line stays on standard error. Either way, scrubbed of every registered
 * secret (client/redact.ts).
 */
import { AsyncLocalStorage } from "async_hooks";
import { redact } from "../client/redact";
import { setUserLogSink } from "../framework/userLog";
import { enginegrpc, enginepb, grpc } from "./protos";

/** How much a message matters, as the engine's log ranks it (an error is no message: it is the call's answer). */
export type Severity = "debug" | "info" | "warning";

const SEVERITY: Readonly<Record<Severity, enginepb.LogSeverity>> = {
  debug: enginepb.LogSeverity.DEBUG,
  info: enginepb.LogSeverity.INFO,
  warning: enginepb.LogSeverity.WARNING,
};

/** Where messages go: the engine's log, or (no engine to talk to) standard error. */
export interface LogSink {
  /**
   * Logs `message` under resource `urn` (none: the whole operation). An `ephemeral` message
   * is a status the CLI shows while the resource's step runs, then drops.
   */
  log(severity: Severity, message: string, urn?: string, ephemeral?: boolean): Promise<void>;
}

/**
 * The engine's log, over gRPC. A message the engine does not take goes to standard error. Its
 * gRPC client is made at the first message, not before: a start that logs nothing never loads
 * gRPC's client side (in the release's bundle, a part of its own: scripts/plugin/grpc-server-only.js).
 */
export class EngineLog implements LogSink {
  private connection: enginegrpc.EngineClient | undefined;

  /** @param address the engine's `host:port`, the plugin's first argument */
  constructor(private readonly address: string) {}

  private get client(): enginegrpc.EngineClient {
    // No channelz, as the plugin's server keeps none (server.ts `listen`): nothing reads its statistics.
    this.connection ??= new enginegrpc.EngineClient(this.address, grpc.credentials.createInsecure(), { "grpc.enable_channelz": 0 });
    return this.connection;
  }

  /** @inheritdoc */
  log(severity: Severity, message: string, urn = "", ephemeral = false): Promise<void> {
    const req = new enginepb.LogRequest();
    req.setSeverity(SEVERITY[severity]).setMessage(message).setUrn(urn).setEphemeral(ephemeral);
    let client: enginegrpc.EngineClient;
    try {
      client = this.client;
    } catch (e) {
      // gRPC's client cannot be loaded (a part of the release's bundle missing): the message is kept, on standard error.
      process.stderr.write(
        `pulumi-resource-clouddb: cannot reach the engine's log: ${e instanceof Error ? e.message : String(e)}\n${message}\n`,
      );
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      client.log(req, (err) => {
        if (err) process.stderr.write(`${message}\n`);
        resolve();
      });
    });
  }

  /** Closes the connection. */
  close(): void {
    this.connection?.close();
  }
}

/** Standard error: where messages go when no engine address was given (the plugin run by hand, tests). */
export const STDERR: LogSink = {
  async log(severity, message, urn) {
    process.stderr.write(`${severity === "info" ? "" : `${severity}: `}${urn ? `${urn}: ` : ""}${message}\n`);
  },
};

/** The call running: the resource it is about, and its messages on their way to the engine. */
interface Call {
  readonly urn: string;
  readonly sending: Array<Promise<void>>;
}

const current = new AsyncLocalStorage<Call>();

/**
 * Runs `fn` as a call about resource `urn`: what it logs (see {@link routeConsole}) goes under
 * that resource, and has reached the engine before the call ends (so a message is never
 * lost to the engine ending the plugin, nor shown after the step it belongs to).
 */
export async function withinResource<T>(urn: string, fn: () => Promise<T>): Promise<T> {
  const call: Call = { urn, sending: [] };
  try {
    return await current.run(call, fn);
  } finally {
    await Promise.all(call.sending);
  }
}

/** The resource whose call is running, or undefined outside any. */
export function currentResource(): string | undefined {
  return current.getStore()?.urn;
}

/**
 * Sends the core's messages to the user (framework/userLog.ts) to `sink`, under the resource of
 * the call that says them; every `console.error` line is written as before, scrubbed. Returns
 * the function that undoes both.
 */
export function routeConsole(sink: LogSink): () => void {
  const restoreSink = setUserLogSink((severity, message) => {
    const call = current.getStore();
    const sent = sink.log(severity, redact(message), call?.urn);
    call?.sending.push(sent);
  });
  const original = console.error;
  console.error = (...args: unknown[]): void => {
    original(
      redact(args.map((a) => (typeof a === "string" ? a : a instanceof Error ? (a.stack ?? a.message) : JSON.stringify(a))).join(" ")),
    );
  };
  return () => {
    console.error = original;
    restoreSink();
  };
}
