/**
 * The native plugin as the engine runs it, for fast tests of its server: the compiled entry
 * point (`dist/provider/native/main.js`, `npm test` builds first) as a child process given the
 * address of a fake engine, whose Log RPC records what the plugin tells the user, and a typed
 * client of its ResourceProvider service.
 */
import { ChildProcess, spawn } from "child_process";
import * as path from "path";
import type { Server as GrpcServer } from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import * as fs from "fs";
import * as os from "os";
import { REPO_ROOT } from "../../harness";
import { processesUnder } from "../../harness/cli/processes";
import { alive } from "../../harness/processes";
import { decodeInitFailure, type InitFailure } from "../../harness/pluginHost";
import { SECRET_SIG, SIG_KEY } from "../../harness/secrets";
import { emptypb, fromStruct, grpc, provgrpc, provpb, pulumiDir, toStruct, type JsonObject } from "../../harness/protos";
import type { Served } from "../../provider/native/provider";

const enginegrpc = require(
  require.resolve("@pulumi/pulumi/proto/engine_grpc_pb", { paths: [pulumiDir] }),
) as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");

/** A secret value on the wire. */
export const secret = (value: unknown): JsonObject => ({ [SIG_KEY]: SECRET_SIG, value });
/** The unknown value of a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** Whether `v` is a secret on the wire. */
export const isSecret = (v: unknown): boolean => v !== null && typeof v === "object" && (v as JsonObject)[SIG_KEY] !== undefined;

/** A message the plugin sent to the engine's log. */
export interface Logged {
  readonly severity: number;
  readonly message: string;
  readonly urn: string;
  readonly ephemeral: boolean;
}

/** An RPC that failed: its message, and the partial failure it carried, if any. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly initFailure?: InitFailure,
  ) {
    super(message);
  }
}

type Client = InstanceType<typeof provgrpc.ResourceProviderClient>;

/** The command line of process `pid`, its arguments joined by spaces ("" once it is gone). */
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/** The URN of resource `name` of type `Kind` (`clouddb:index:<Kind>`) in stack `dev` of project `proj`. */
export const urnOf = (kind: string, name: string): string => `urn:pulumi:dev::proj::clouddb:index:${kind}::${name}`;

/**
 * A plugin process and a fake engine; or, from {@link NativePlugin.inProcess}, the plugin's
 * gRPC server in this process (what its entry point serves, on a loopback port), its engine
 * log recorded directly.
 */
export class NativePlugin {
  /** What the plugin logged to the engine. */
  readonly logged: Logged[] = [];
  /** What it wrote to standard error. */
  stderr = "";
  private constructor(
    private readonly child: ChildProcess | undefined,
    private readonly client: Client,
    private readonly engine: GrpcServer,
  ) {}

  /**
   * The plugin's server (provider/native/server.ts `listen` of `providerService`, as its entry
   * point runs it) in this process, serving `served` (every registered resource type and
   * lookup unless given): the same requests over gRPC, no process. What the provider tells
   * the engine's log is recorded in {@link NativePlugin.logged}; the process-only members
   * ({@link NativePlugin.pid}, {@link NativePlugin.killEngine}) throw.
   */
  static async inProcess(served?: Served): Promise<NativePlugin> {
    // Loaded here: the suites that start a process load none of the provider.
    const { ClouddbProvider } = require("../../provider/native/provider") as typeof import("../../provider/native/provider");
    const { listen, providerService } = require("../../provider/native/server") as typeof import("../../provider/native/server");
    const { routeConsole } = require("../../provider/native/engineLog") as typeof import("../../provider/native/engineLog");
    const { enginepb } = require("../../provider/native/protos") as typeof import("../../provider/native/protos");
    const logged: Logged[] = [];
    const severities = { debug: enginepb.LogSeverity.DEBUG, info: enginepb.LogSeverity.INFO, warning: enginepb.LogSeverity.WARNING };
    const sink: import("../../provider/native/engineLog").LogSink = {
      log: async (severity, message, urn = "", ephemeral = false) => {
        logged.push({ severity: severities[severity], message, urn, ephemeral });
      },
    };
    const provider = new ClouddbProvider(sink, served);
    const { server, port } = await listen(providerService(provider));
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const plugin = new NativePlugin(undefined, client, server);
    Object.defineProperty(plugin, "logged", { value: logged });
    // What the framework tells the user goes to the engine's log, as the entry point routes it (main.ts).
    plugin.unroute = routeConsole(sink);
    return plugin;
  }

  /** Undoes the routing of the framework's messages to this plugin's log, and restores the environment (in process only). */
  private unroute: () => void = () => undefined;

  /**
   * The plugin for a suite of its behaviour (what it answers, not how its process lives): its
   * server in this process ({@link NativePlugin.inProcess}), `env` set in this process's
   * environment until {@link NativePlugin.close}; with `CLOUDDB_NATIVE_HOST=process`, the
   * compiled plugin as a process ({@link NativePlugin.start}), as the engine runs it.
   */
  static async forBehaviour(env: Record<string, string> = {}): Promise<NativePlugin> {
    const chosen = process.env.CLOUDDB_NATIVE_HOST ?? "";
    if (chosen === "process") return NativePlugin.start(env);
    if (chosen !== "" && chosen !== "in-process")
      throw new Error(`CLOUDDB_NATIVE_HOST is "${chosen}": it must be "process" or "in-process"`);
    const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const restoreEnv = (): void => {
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    const plugin = await NativePlugin.inProcess().catch((e: unknown) => {
      restoreEnv();
      throw e;
    });
    const unroute = plugin.unroute;
    plugin.unroute = () => {
      unroute();
      restoreEnv();
    };
    return plugin;
  }

  /** The plugin's process. @throws when it is served in this process */
  private get process(): ChildProcess {
    if (this.child === undefined) throw new Error("this plugin is served in this process: it has no process of its own");
    return this.child;
  }

  /**
   * Starts the fake engine and the plugin (env: added to this process's, without CLOUDDB_*),
   * on `opts.node` (this process's Node.js unless given), from `opts.entry` (the compiled entry
   * point unless given; or the release's loader); with `opts.launcher`, the release's launcher
   * instead, started as the engine starts it (it runs the loader beside it on the `node` on
   * PATH, or its single-file build). With `opts.enginePipe`, the plugin's
   * standard input is a pipe whose other end another process holds, as the engine holds it
   * (see {@link NativePlugin.killEngine}); else `/dev/null`.
   */
  static async start(
    env: Record<string, string> = {},
    opts: { node?: string; entry?: string; launcher?: string; enginePipe?: boolean } = {},
  ): Promise<NativePlugin> {
    const logged: Logged[] = [];
    const engine = new grpc.Server();
    engine.addService(enginegrpc.EngineService, {
      log: (
        call: { request: { getSeverity(): number; getMessage(): string; getUrn(): string; getEphemeral(): boolean } },
        cb: (e: null, r: unknown) => void,
      ) => {
        const r = call.request;
        logged.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn(), ephemeral: r.getEphemeral() });
        cb(null, new emptypb.Empty());
      },
    });
    const enginePort = await new Promise<number>((res, rej) =>
      engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("CLOUDDB_API") && k !== "CLOUDDB_PROJECT_ID"),
    );
    const main = opts.launcher
      ? [opts.launcher, `127.0.0.1:${enginePort}`]
      : [
          opts.node ?? process.execPath,
          opts.entry ?? path.join(REPO_ROOT, "dist", "provider", "native", "main.js"),
          `127.0.0.1:${enginePort}`,
        ];
    // The engine's pipe: `sleep` holds its writing end, as the CLI does; the plugin is the pipeline's last command.
    const child = opts.enginePipe
      ? spawn("sh", ["-c", 'sleep 100000 | exec "$@"', "sh", ...main], { env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] })
      : spawn(main[0], main.slice(1), { env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0].trim());
      });
      child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr}`)));
    });
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const plugin = new NativePlugin(child, client, engine);
    Object.defineProperty(plugin, "logged", { value: logged });
    child.stderr.on("data", (d: Buffer) => (plugin.stderr += d.toString()));
    return plugin;
  }

  private call<Req, Res>(method: string, req: Req): Promise<Res> {
    const fn = (
      this.client as unknown as Record<string, (r: Req, cb: (e: import("@grpc/grpc-js").ServiceError | null, res: Res) => void) => void>
    )[method].bind(this.client);
    return new Promise((resolve, reject) =>
      fn(req, (e, res) => (e ? reject(new RpcError(e.details || e.message, decodeInitFailure(e))) : resolve(res))),
    );
  }

  /** The schema the plugin serves. */
  async schema(): Promise<JsonObject> {
    const res = await this.call<pb.GetSchemaRequest, pb.GetSchemaResponse>("getSchema", new provpb.GetSchemaRequest());
    return JSON.parse(res.getSchema()) as JsonObject;
  }

  /** CheckConfig of the provider's inputs. */
  async checkConfig(news: JsonObject): Promise<{ property: string; reason: string }[]> {
    const req = new provpb.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::pulumi:providers:clouddb::default")
      .setNews(toStruct(news))
      .setOlds(toStruct({}));
    const res = await this.call<pb.CheckRequest, pb.CheckResponse>("checkConfig", req);
    return res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
  }

  /** The provider's inputs as CheckConfig returns them (what the engine stores). */
  async checkedConfig(news: JsonObject): Promise<JsonObject> {
    const req = new provpb.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::pulumi:providers:clouddb::p")
      .setNews(toStruct(news))
      .setOlds(toStruct({}));
    return fromStruct((await this.call<pb.CheckRequest, pb.CheckResponse>("checkConfig", req)).getInputs());
  }

  /** DiffConfig of the provider's recorded inputs against new ones. */
  async diffConfig(olds: JsonObject, news: JsonObject): Promise<{ changes: number; replaces: string[]; diffs: string[] }> {
    const req = new provpb.DiffRequest()
      .setUrn("urn:pulumi:dev::proj::pulumi:providers:clouddb::prov")
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    const res = await this.call<pb.DiffRequest, pb.DiffResponse>("diffConfig", req);
    return { changes: res.getChanges(), replaces: res.getReplacesList(), diffs: res.getDiffsList() };
  }

  /** Configure with the provider's inputs; whether it announces preview support and secrets. */
  async configure(args: JsonObject): Promise<{ supportsPreview: boolean; acceptSecrets: boolean }> {
    const res = await this.call<pb.ConfigureRequest, pb.ConfigureResponse>(
      "configure",
      new provpb.ConfigureRequest().setArgs(toStruct(args)).setAcceptsecrets(true),
    );
    return { supportsPreview: res.getSupportspreview(), acceptSecrets: res.getAcceptsecrets() };
  }

  /** Check of a resource's inputs. */
  async check(
    urn: string,
    news: JsonObject,
    olds: JsonObject = {},
  ): Promise<{ inputs: JsonObject; failures: { property: string; reason: string }[] }> {
    const req = new provpb.CheckRequest().setUrn(urn).setNews(toStruct(news)).setOlds(toStruct(olds));
    const res = await this.call<pb.CheckRequest, pb.CheckResponse>("check", req);
    return {
      inputs: fromStruct(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Diff of recorded outputs against new inputs. */
  async diff(
    urn: string,
    id: string,
    olds: JsonObject,
    news: JsonObject,
  ): Promise<{ changes: number; replaces: string[]; diffs: string[]; detailed: Record<string, number> }> {
    const req = new provpb.DiffRequest().setUrn(urn).setId(id).setOlds(toStruct(olds)).setNews(toStruct(news)).setOldInputs(toStruct({}));
    const res = await this.call<pb.DiffRequest, pb.DiffResponse>("diff", req);
    const detailed: Record<string, number> = {};
    res.getDetaileddiffMap().forEach((v, k) => (detailed[k] = v.getKind()));
    return { changes: res.getChanges(), replaces: res.getReplacesList(), diffs: res.getDiffsList(), detailed };
  }

  /** Create (timeout: the engine's, in seconds). */
  async create(
    urn: string,
    news: JsonObject,
    opts: { preview?: boolean; timeout?: number } = {},
  ): Promise<{ id: string; outs: JsonObject }> {
    const req = new provpb.CreateRequest()
      .setUrn(urn)
      .setProperties(toStruct(news))
      .setPreview(opts.preview ?? false)
      .setTimeout(opts.timeout ?? 0);
    const res = await this.call<pb.CreateRequest, pb.CreateResponse>("create", req);
    return { id: res.getId(), outs: fromStruct(res.getProperties()) };
  }

  /** Read (props and inputs empty: an import). */
  async read(
    urn: string,
    id: string,
    props: JsonObject = {},
    inputs: JsonObject = {},
  ): Promise<{ id: string; outs: JsonObject; inputs: JsonObject }> {
    const req = new provpb.ReadRequest().setUrn(urn).setId(id).setProperties(toStruct(props)).setInputs(toStruct(inputs));
    const res = await this.call<pb.ReadRequest, pb.ReadResponse>("read", req);
    return { id: res.getId(), outs: fromStruct(res.getProperties()), inputs: fromStruct(res.getInputs()) };
  }

  /** Update. */
  async update(
    urn: string,
    id: string,
    olds: JsonObject,
    news: JsonObject,
    opts: { preview?: boolean; timeout?: number } = {},
  ): Promise<JsonObject> {
    const req = new provpb.UpdateRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(toStruct(olds))
      .setNews(toStruct(news))
      .setPreview(opts.preview ?? false)
      .setTimeout(opts.timeout ?? 0);
    const res = await this.call<pb.UpdateRequest, pb.UpdateResponse>("update", req);
    return fromStruct(res.getProperties());
  }

  /** Delete; `oldInputs`: the resource's inputs as state recorded them, which the engine sends too; `timeout`: the engine's, in seconds. */
  async delete(urn: string, id: string, props: JsonObject, oldInputs?: JsonObject, timeout = 0): Promise<void> {
    const req = new provpb.DeleteRequest().setUrn(urn).setId(id).setProperties(toStruct(props)).setTimeout(timeout);
    if (oldInputs) req.setOldInputs(toStruct(oldInputs));
    await this.call("delete", req);
  }

  /** Invoke of a function; its result and failures. */
  async invoke(tok: string, args: JsonObject): Promise<{ result: JsonObject; failures: { property: string; reason: string }[] }> {
    const res = await this.call<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new provpb.InvokeRequest().setTok(tok).setArgs(toStruct(args)),
    );
    return {
      result: fromStruct(res.getReturn()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** The engine's Cancel. */
  async cancel(): Promise<void> {
    await this.call("cancel", new emptypb.Empty());
  }

  /** The plugin's process id (the node process, under the shell that holds the engine's pipe when there is one). */
  get pid(): number {
    const node = processesUnder(this.process.pid!).find((p) => commandOf(p).includes("main.js"));
    return node ?? this.process.pid!;
  }

  /** The engine dies: the process holding the writing end of the plugin's engine pipe is killed (SIGKILL). */
  killEngine(): void {
    for (const p of processesUnder(this.process.pid!)) if (commandOf(p).startsWith("sleep")) process.kill(p, "SIGKILL");
  }

  /** Ends the plugin and the fake engine. */
  async close(): Promise<void> {
    this.client.close();
    if (this.child === undefined) {
      // In process: the plugin's own server, ended as the process's end would end it.
      this.unroute();
      this.engine.forceShutdown();
      return;
    }
    const plugin = this.pid;
    if (alive(plugin)) process.kill(plugin, "SIGKILL");
    this.killEngine();
    const child = this.child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    await new Promise<void>((r) => this.engine.tryShutdown(() => r()));
  }
}

/** An emulator, a client of it, and the plugin's server in this process configured for it: what behaviour suites start with. */
export interface BehaviourRig {
  readonly emu: import("../../emulator").RunningEmulator;
  readonly api: import("../../provider/client").ClouddbClient;
  readonly control: import("../../emulator/control-client").EmulatorControl;
  readonly plugin: NativePlugin;
  /** The provider configuration the plugin was given. */
  readonly config: JsonObject;
  /** Stops all of it and removes the journal. */
  close(): Promise<void>;
}

/**
 * Starts a {@link BehaviourRig}: the emulator (transitions at 2 % of their time), the plugin
 * ({@link NativePlugin.forBehaviour}, its journal in a folder of its own) configured with the
 * emulator's URL, key and project, and polls of 20 to 200 ms.
 */
export async function behaviourRig(): Promise<BehaviourRig> {
  const { startEmulator } = require("../../emulator") as typeof import("../../emulator");
  const { EmulatorControl } = require("../../emulator/control-client") as typeof import("../../emulator/control-client");
  const { ClouddbClient } = require("../../provider/client") as typeof import("../../provider/client");
  const emu = await startEmulator({ port: 0, clockScale: 0.02 });
  const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  const control = new EmulatorControl(emu.url, emu.pat);
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-native-"));
  const plugin = await NativePlugin.forBehaviour({ CLOUDDB_JOURNAL_DIR: journal });
  const config = { apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms", pollMaxInterval: "200ms" };
  await plugin.configure(config);
  return {
    emu,
    api,
    control,
    plugin,
    config,
    close: async () => {
      await plugin.close();
      await api.close();
      await emu.close();
      fs.rmSync(journal, { recursive: true, force: true });
    },
  };
}
