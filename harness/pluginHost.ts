/**
 * The real dynamic-provider plugin (`@pulumi/pulumi/cmd/dynamic-provider`) as a child process,
 * and a typed gRPC client for it. One concern: spawn, talk, kill.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { emptypb, fromStruct, grpc, provgrpc, provpb, pulumiDir, statuspb } from "./protos";
import { alive, descendants } from "./processes";
import { InitFailure, ProviderError, ProviderHost, type ProviderHostOptions, RequestMethod } from "./providerHost";

export { ProviderError };
export type { InitFailure };

/** Options of {@link PluginHost}: a provider host's. */
export type PluginHostOptions = ProviderHostOptions;

const INIT_FAILED_TYPE = "pulumirpc.ErrorResourceInitFailed";
type ClientT = InstanceType<typeof provgrpc.ResourceProviderClient>;
type Unary<Req, Res> = (req: Req, cb: (err: import("@grpc/grpc-js").ServiceError | null, res: Res) => void) => unknown;

/** Decodes `grpc-status-details-bin` into an {@link InitFailure}, if it holds one. */
export function decodeInitFailure(err: import("@grpc/grpc-js").ServiceError): InitFailure | undefined {
  const raw = err.metadata?.get("grpc-status-details-bin") ?? [];
  if (raw.length === 0) return undefined;
  const bin = raw[0];
  const bytes = typeof bin === "string" ? Buffer.from(bin, "base64") : bin;
  const status = statuspb.Status.deserializeBinary(new Uint8Array(bytes));
  for (const any of status.getDetailsList()) {
    if (any.getTypeName() !== INIT_FAILED_TYPE) continue;
    const detail = provpb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return { id: detail.getId(), properties: fromStruct(detail.getProperties()), reasons: detail.getReasonsList() };
  }
  return undefined;
}

/**
 * One plugin process, as the engine starts one per run and provider (pulumi/pulumi v3.248.0,
 * sdk/go/common/resource/plugin/provider_plugin.go `NewProvider` L173-330): `node
 * <dynamic-provider> <engine address>` in the program's directory, with the CLI's environment
 * plus `PULUMI_NODEJS_PROJECT`, `PULUMI_PROJECT` and `PULUMI_CONFIG` (the config of the
 * `pulumi-nodejs` namespace, normally `{}`) and not the stack's name (L239-262). `start`
 * spawns it, in a process group of its own (plugin.go L597-598 `RegisterProcessGroup`), and reads
 * the port it prints; `close` ends it as the engine does at the end of a run, `kill` with SIGKILL.
 */
export class PluginHost extends ProviderHost {
  /** The stand-in for the CLI process: the parent of the shim that runs the plugin. */
  private cli?: ChildProcess;
  private pluginPid?: number;
  private client?: ClientT;

  constructor(private readonly opts: PluginHostOptions) {
    super();
  }

  /**
   * The script the CLI runs for the `pulumi-nodejs` plugin (`pulumi-resource-pulumi-nodejs`
   * in the SDK): it resolves `@pulumi/pulumi/cmd/dynamic-provider` from the working directory
   * and runs `node <it> <engine address>` as its child.
   */
  static shimPath(): string {
    return path.join(pulumiDir, "pulumi-resource-pulumi-nodejs");
  }

  /** True while the plugin process is running. */
  get running(): boolean {
    return this.pluginPid !== undefined && alive(this.pluginPid);
  }

  /** Process id of the running plugin (the node process), if any. */
  get pid(): number | undefined {
    return this.running ? this.pluginPid : undefined;
  }

  /**
   * Starts the plugin as the CLI does: a process standing in for the CLI runs the shim,
   * which runs node; waits for the port the plugin prints. Throws if one is already running.
   */
  async start(): Promise<void> {
    if (this.running) throw new Error("plugin already running");
    const { PULUMI_NODEJS_STACK: _stack, ...cliEnv } = process.env;
    void _stack;
    // `; exit` keeps the outer shell from exec-ing the shim: it stays the shim's parent, as the CLI is.
    const cli = spawn("sh", ["-c", 'sh "$0" "$1"; exit $?', PluginHost.shimPath(), "127.0.0.1:1"], {
      cwd: this.opts.cwd,
      env: {
        ...cliEnv,
        PATH: `${path.dirname(process.execPath)}${path.delimiter}${cliEnv.PATH ?? ""}`,
        PULUMI_NODEJS_PROJECT: this.opts.project,
        PULUMI_PROJECT: this.opts.project,
        PULUMI_CONFIG: "{}",
        ...this.opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // setpgid, as the engine starts every plugin: its close signals the whole group.
      detached: true,
    });
    this.cli = cli;
    // A forgotten close() must not keep the test process alive.
    cli.unref();
    for (const s of [cli.stdout, cli.stderr] as unknown as { unref?: () => void }[]) s.unref?.();
    cli.stderr.setEncoding("utf8");
    cli.stderr.on("data", (d: string) => this.opts.onStderr?.(d));
    const port = await new Promise<number>((resolve, reject) => {
      let buf = "";
      let found = false;
      cli.stdout.setEncoding("utf8");
      cli.stdout.on("data", (d: string) => {
        if (found) {
          this.opts.onStdout?.(d);
          return;
        }
        buf += d;
        const nl = buf.indexOf("\n");
        if (nl < 0) return;
        found = true;
        if (nl + 1 < buf.length) this.opts.onStdout?.(buf.slice(nl + 1));
        const p = Number(buf.slice(0, nl).trim());
        if (Number.isInteger(p) && p > 0) resolve(p);
        else reject(new Error(`plugin printed no port: ${JSON.stringify(buf)}`));
      });
      cli.once("exit", (code, sig) => reject(new Error(`plugin exited before printing its port (code ${code}, signal ${sig})`)));
      cli.once("error", reject);
    });
    this.pluginPid = descendants(cli.pid!).pop();
    // A test run counts the plugin processes started (tests/setup/runScope.js).
    const starts = process.env.CLOUDDB_PLUGIN_STARTS;
    if (starts) fs.appendFileSync(starts, `${this.pluginPid ?? ""}\n`);
    this.client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
    });
  }

  /**
   * The CLI dies (SIGKILL of the process standing in for it); the plugin goes on, orphaned, as
   * under an engine that gives it no pipe on its standard input (README, rule P3: under the
   * real CLI a provider whose engine is gone exits).
   */
  killEngine(): void {
    const cli = this.cli;
    if (cli && cli.exitCode === null && cli.signalCode === null) cli.kill("SIGKILL");
  }

  /**
   * Kills the plugin with SIGKILL (no cleanup in the plugin) and waits for it to exit; its
   * shells then exit on their own, reaping it (a dead plugin whose shell is gone would stay
   * a zombie). In-flight RPCs fail.
   */
  async kill(): Promise<void> {
    this.client?.close();
    this.client = undefined;
    const cli = this.cli;
    const plugin = this.pluginPid;
    this.cli = undefined;
    this.pluginPid = undefined;
    const signal = (pid: number | undefined): void => {
      try {
        if (pid !== undefined) process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    signal(plugin);
    while (plugin !== undefined && alive(plugin)) await new Promise((r) => setTimeout(r, 10));
    if (cli && cli.exitCode === null && cli.signalCode === null) {
      const exited = new Promise<void>((resolve) => cli.once("exit", () => resolve()));
      const timer = setTimeout(() => [cli.pid, ...descendants(cli.pid ?? -1)].forEach(signal), 2000);
      await exited;
      clearTimeout(timer);
    }
  }

  /**
   * Ends the plugin as the engine does at the end of a run (pulumi/pulumi v3.248.0,
   * pkg/host/host.go `defaultHost.Close` L662-685: a Cancel RPC, then `Plugin.Close`;
   * sdk/go/common/resource/plugin/plugin.go L640-670 and L746-751: the connection closed,
   * SIGINT to the plugin's process group, SIGKILL to the group if it has not exited after 5 s).
   */
  async close(): Promise<void> {
    const client = this.client;
    const cli = this.cli;
    if (!client || !cli || cli.exitCode !== null || cli.signalCode !== null) {
      await this.kill();
      return;
    }
    await new Promise<void>((resolve) =>
      client.cancel(new emptypb.Empty(), new grpc.Metadata(), { deadline: Date.now() + 5000 }, () => resolve()),
    );
    client.close();
    this.client = undefined;
    this.cli = undefined;
    this.pluginPid = undefined;
    const exited = new Promise<void>((resolve) => cli.once("exit", () => resolve()));
    const group = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-cli.pid!, signal);
      } catch {
        // the group is gone
      }
    };
    group("SIGINT");
    const timer = setTimeout(() => group("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }

  protected call<Req, Res>(method: RequestMethod, req: Req): Promise<Res> {
    const client = this.client;
    if (!client) {
      return Promise.reject(new ProviderError(`plugin is not running (${method})`, grpc.status.UNAVAILABLE));
    }
    const fn = (client as unknown as Record<string, Unary<Req, Res>>)[method].bind(client);
    return new Promise<Res>((resolve, reject) => {
      fn(req, (err, res) => {
        if (err) {
          const message = err.details || err.message;
          reject(new ProviderError(message, err.code, decodeInitFailure(err)));
        } else {
          resolve(res);
        }
      });
    });
  }
}
