/**
 * The dynamic-provider plugin served in this process: {@link InProcessHost}, a
 * {@link ProviderHost} whose requests never leave the test process. What the plugin does
 * between the wire and the provider is kept: requests are the same protobuf messages, read
 * with `toJavaScript` as the plugin reads them; the provider is the serialized `__provider`
 * text loaded with `require-from-string` and configured once per host; responses are built
 * with `fromJavaScript`, and errors become the gRPC statuses the plugin's server would send
 * (pulumi/pulumi v3.248.0, sdk/nodejs/cmd/dynamic-provider/index.ts, cited per step in
 * inProcessWorker.js). What is left out is the process: no spawn, no port, no gRPC; the
 * provider runs in a worker thread, one per engine run, so its module state starts fresh each
 * run as in a new plugin process.
 *
 * What it cannot show, and what therefore keeps the real {@link PluginHost}: anything whose
 * subject is a process (kills, orphans, restarts, a process id, the shim that resolves the
 * plugin, the provider's process-bound journal ownership), and the plugin's own startup.
 */
import * as fs from "fs";
import * as path from "path";
import { Worker } from "worker_threads";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { emptypb, grpc, JsonObject, provpb, structpb } from "./protos";
import { InitFailure, ProviderError, ProviderHost, type ProviderHostOptions, RequestMethod } from "./providerHost";

/** Options of {@link InProcessHost}: a provider host's. */
export type InProcessHostOptions = ProviderHostOptions;

/** The worker's script: the plugin's RPC bodies. */
const WORKER = path.join(__dirname, "inProcessWorker.js");

/** An error as the worker reports it: the fields of the thrown value the plugin's answer reads. */
interface WorkerFailure {
  message: string;
  code?: unknown;
  details?: unknown;
  id?: unknown;
  properties?: unknown;
  reasons?: unknown;
}

/** The answer of one call. */
type WorkerAnswer = { seq: number; result: Record<string, unknown> } | { seq: number; error: WorkerFailure };

type Struct = InstanceType<typeof structpb.Struct>;
type JsValue = Parameters<typeof structpb.Struct.fromJavaScript>[0];

/** A {@link ProviderHost} that serves the dynamic provider in a worker thread of this process. */
export class InProcessHost extends ProviderHost {
  private worker?: Worker;
  private seq = 0;
  private readonly pending = new Map<
    number,
    { method: RequestMethod; resolve: (r: Record<string, unknown>) => void; reject: (e: ProviderError) => void }
  >();

  constructor(private readonly opts: InProcessHostOptions) {
    super();
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** There is no process: undefined. */
  get pid(): number | undefined {
    return undefined;
  }

  /**
   * Starts the worker, in the environment a plugin process gets (the CLI's, without the
   * stack's name, plus the project and `PULUMI_CONFIG`: see {@link PluginHost}); resolves once
   * it runs. The provider's modules load at the first request, as in the plugin.
   */
  async start(): Promise<void> {
    if (this.worker) throw new Error("in-process host already running");
    const { PULUMI_NODEJS_STACK: _stack, ...cliEnv } = process.env;
    void _stack;
    const worker = new Worker(WORKER, {
      workerData: { cwd: this.opts.cwd },
      env: {
        ...cliEnv,
        PULUMI_NODEJS_PROJECT: this.opts.project,
        PULUMI_PROJECT: this.opts.project,
        PULUMI_CONFIG: "{}",
        ...this.opts.env,
      },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    worker.unref();
    worker.stdout.setEncoding("utf8");
    worker.stderr.setEncoding("utf8");
    worker.stdout.on("data", (d: string) => this.opts.onStdout?.(d));
    worker.stderr.on("data", (d: string) => this.opts.onStderr?.(d));
    worker.on("message", (answer: WorkerAnswer) => this.settle(answer));
    worker.on("exit", () => this.drop(worker));
    await new Promise<void>((resolve, reject) => {
      worker.once("online", resolve);
      worker.once("error", reject);
    });
    // A test run counts the hosts it started, by kind (tests/setup/runScope.js).
    const starts = process.env.CLOUDDB_PLUGIN_STARTS;
    if (starts) fs.appendFileSync(starts, "in-process\n");
  }

  /** Ends the worker as the engine ends a plugin: its Cancel does nothing, and SIGINT ends a provider that does not handle it at once. */
  async close(): Promise<void> {
    await this.kill();
  }

  /** Ends the worker at once; calls under way fail as calls to a dead plugin do. */
  async kill(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.drop(worker);
    await worker.terminate();
  }

  /** No process stands for the engine here: the worker goes on, as an orphaned plugin would. */
  killEngine(): void {}

  /**
   * One request: read as the plugin reads it, answered by the worker, written back as the
   * plugin writes its response or its error status.
   */
  protected async call<Req, Res>(method: RequestMethod, req: Req): Promise<Res> {
    const r = req as unknown as Record<string, () => Struct | undefined> & { getId(): string };
    const js = (s: Struct | undefined): JsonObject => (s ? s.toJavaScript() : {});
    switch (method) {
      case "configure": {
        // index.ts `configure`: every key but `__provider`, secrets unwrapped.
        const args = js(r.getArgs());
        const config = Object.fromEntries(
          Object.entries(args)
            .filter(([k]) => k !== "__provider")
            .map(([k, v]) => [k, rpc.unwrapRpcSecret(v)]),
        );
        await this.ask(method, { config });
        const res = new provpb.ConfigureResponse();
        res.setAcceptsecrets(false);
        return res as Res;
      }
      case "check": {
        const out = await this.ask(method, { olds: js(r.getOlds()), news: js(r.getNews()), unknown: rpc.unknownValue });
        const res = new provpb.CheckResponse();
        res.setInputs(structOf(out.inputs));
        const failures = out.failures as { property: string; reason: string }[];
        res.setFailuresList(
          failures.map((f) => {
            const failure = new provpb.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
        );
        return res as Res;
      }
      case "diff": {
        const out = await this.ask(method, { id: r.getId(), olds: js(r.getOlds()), news: js(r.getNews()), unknown: rpc.unknownValue });
        const res = new provpb.DiffResponse();
        // Without a `diff`, the plugin answers with an empty response.
        if (out.diffed) {
          const C = provpb.DiffResponse.DiffChanges;
          res.setChanges(out.changes === true ? C.DIFF_SOME : out.changes === false ? C.DIFF_NONE : C.DIFF_UNKNOWN);
          const replaces = out.replaces as string[] | undefined;
          if (replaces && replaces.length !== 0) res.setReplacesList(replaces);
          if (out.deleteBeforeReplace) res.setDeletebeforereplace(true);
        }
        return res as Res;
      }
      case "create": {
        const out = await this.ask(method, { props: js(r.getProperties()) });
        const res = new provpb.CreateResponse();
        res.setId(out.id as string);
        res.setProperties(structOf(out.props));
        return res as Res;
      }
      case "read": {
        const props = r.getProperties();
        const out = await this.ask(method, { id: r.getId(), props: js(props) });
        const res = new provpb.ReadResponse();
        res.setId(out.id as string);
        // Without a `read`, the plugin answers with the request's own properties.
        res.setProperties(out.asIs ? props : structOf(out.props));
        if (out.inputs) res.setInputs(structOf(out.inputs));
        return res as Res;
      }
      case "update": {
        const out = await this.ask(method, { id: r.getId(), olds: js(r.getOlds()), news: js(r.getNews()) });
        const res = new provpb.UpdateResponse();
        res.setProperties(structOf(out.props));
        return res as Res;
      }
      case "delete": {
        await this.ask(method, { id: r.getId(), props: js(r.getProperties()) });
        return new emptypb.Empty() as Res;
      }
    }
  }

  /** Sends one call to the worker; rejects with the {@link ProviderError} the plugin's gRPC status would give. */
  private ask(method: RequestMethod, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new ProviderError(`plugin is not running (${method})`, grpc.status.UNAVAILABLE));
    const seq = ++this.seq;
    if (this.pending.size === 0) worker.ref();
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      this.pending.set(seq, { method, resolve, reject });
      worker.postMessage({ seq, method, args });
    });
  }

  private settle(answer: WorkerAnswer): void {
    const waiting = this.pending.get(answer.seq);
    if (!waiting) return;
    this.pending.delete(answer.seq);
    if (this.pending.size === 0) this.worker?.unref();
    if ("error" in answer) waiting.reject(statusError(waiting.method, answer.error));
    else waiting.resolve(answer.result);
  }

  /** The worker is gone: every call still waiting fails as a call over a dropped connection does. */
  private drop(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const [seq, waiting] of this.pending) {
      this.pending.delete(seq);
      waiting.reject(new ProviderError("Connection dropped", grpc.status.UNAVAILABLE));
    }
  }
}

/** `Struct.fromJavaScript`, as the plugin writes every object it answers with. */
function structOf(value: unknown): Struct {
  return structpb.Struct.fromJavaScript(value as JsValue);
}

/**
 * The status the plugin's gRPC server sends for an error: create and update answer with
 * `grpcResponseFromError` (UNKNOWN, the message, and an ErrorResourceInitFailed detail when the
 * error carries an `id`, index.ts L447-484); the other calls pass the error itself, which
 * @grpc/grpc-js turns into a status (server-call.ts `serverErrorToStatus`: an integer `code`
 * and a string `details` are taken as they are, else UNKNOWN and the message).
 */
function statusError(method: RequestMethod, e: WorkerFailure): ProviderError {
  if (method === "create" || method === "update") {
    let initFailure: InitFailure | undefined;
    if (e.id) {
      const properties = structOf(e.properties ?? {}).toJavaScript() as JsonObject;
      initFailure = { id: e.id as string, properties, reasons: (e.reasons as string[] | undefined) ?? [] };
    }
    return new ProviderError(e.message, grpc.status.UNKNOWN, initFailure);
  }
  const ownCode = typeof e.code === "number" && Number.isInteger(e.code);
  const message = ownCode && typeof e.details === "string" ? e.details : e.message;
  return new ProviderError(message, ownCode ? (e.code as number) : grpc.status.UNKNOWN);
}
