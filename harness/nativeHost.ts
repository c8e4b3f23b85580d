/**
 * The native plugin `pulumi-resource-clouddb` as a {@link ProviderHost}: its ResourceProvider
 * service (provider/native/server.ts `providerService`, what its entry point serves over gRPC)
 * called in this process, the engine's requests handed to its handlers as they arrive and
 * its answers and error statuses handed back. What the engine does differently for a native
 * provider than for the dynamic one is done here, before the request reaches the plugin:
 *
 * - Configure: the provider's inputs are the stack's `clouddb:*` keys without their namespace
 *   (pkg/resource/deploy/target.go `GetPackageConfig` for the package `clouddb`);
 * - the resource's type is the native one (`clouddb:index:<Kind>`), which the schema's
 *   aliases make the same resource as the SDK's dynamic type (`pulumi-nodejs:dynamic/clouddb:<Kind>`);
 * - the SDK's `timeouts` input (Pulumi's `customTimeouts`, which the dynamic SDK turns into it)
 *   is the engine's timeout of a Create or Update, in seconds, as a native program's
 *   `customTimeouts` is; the native plugin takes no such input;
 * - what the plugin says to the engine's Log is printed as the dynamic host prints the same
 *   message (`clouddb: ...`, `warning: clouddb: ...`), so a suite reads both alike.
 *
 * The provider's module state is this process's (the framework's configuration, the create
 * journal's turns), and the host's `env` is set in this process's environment while a native
 * host is alive: one stack on the native host at a time per test file.
 */
import type { ProviderService } from "../provider/native/server";
import { decodeInitFailure } from "./pluginHost";
import { ProviderError, ProviderHost, type ProviderHostOptions, type RequestMethod } from "./providerHost";
import { parseDuration } from "../provider/framework/durations";
import { fromStruct, provpb, toStruct } from "./protos";

/** The native type of a URN of the SDK's dynamic type: `...::pulumi-nodejs:dynamic/clouddb:Vpc::net` → `...::clouddb:index:Vpc::net`. */
export function nativeUrn(urn: string): string {
  return urn.replace(/::((?:[^:]*\$)?)pulumi-nodejs:dynamic\/clouddb:(\w+)::/, "::$1clouddb:index:$2::");
}

type Handler = (
  call: { request: unknown },
  callback: (e: { message?: string; details?: string; code?: number } | null, res?: unknown) => void,
) => void;

/**
 * What the native hosts alive in this process share: the routing of the framework's messages
 * (one, installed by the first host and undone by the last), the environment they set (the
 * values before the first, restored after the last), and the host whose call runs, to which
 * a message goes. A stack starts its next run's host before this run's ends (harness/stack.ts).
 */
const shared = {
  alive: 0,
  active: undefined as NativeHost | undefined,
  undo: () => undefined as void,
};

/** Routes the framework's messages to the host whose call runs and sets `env`, for the first host alive. */
function joined(env: Record<string, string>): void {
  shared.alive += 1;
  if (shared.alive === 1) first(env);
  Object.assign(process.env, env);
}

/** What the first host alive does: route the messages, and keep the environment's values before `env`. */
function first(env: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { routeConsole } = require("../provider/native/engineLog") as typeof import("../provider/native/engineLog");
  const unroute = routeConsole(sink);
  shared.undo = () => {
    unroute();
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** The last host alive undoes what the first did. */
function left(): void {
  shared.alive -= 1;
  if (shared.alive > 0) return;
  shared.undo();
  shared.undo = () => undefined;
  shared.active = undefined;
}

/** What the plugin says to the engine's Log, printed by the host whose call runs, as the dynamic host prints it. */
const sink = {
  log: async (severity: string, message: string): Promise<void> => {
    shared.active?.print(`${severity === "warning" ? "warning: " : ""}clouddb: ${message}\n`);
  },
};

/** A {@link ProviderHost} serving the native plugin's service in this process. */
export class NativeHost extends ProviderHost {
  private service?: ProviderService;
  /** Each resource's `timeouts` input from its Check, by URN: the engine's timeouts of its Create or Update. */
  private readonly customTimeouts = new Map<string, unknown>();

  constructor(private readonly opts: ProviderHostOptions) {
    super();
  }

  get running(): boolean {
    return this.service !== undefined;
  }

  get pid(): number | undefined {
    return undefined;
  }

  /** Makes the plugin's provider and service (one per engine run, as a plugin process is). */
  async start(): Promise<void> {
    if (this.service) throw new Error("native host already running");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ClouddbProvider } = require("../provider/native/provider") as typeof import("../provider/native/provider");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { providerService } = require("../provider/native/server") as typeof import("../provider/native/server");
    joined(this.opts.env);
    this.service = providerService(new ClouddbProvider(sink));
  }

  /** Prints `text` on the host's stderr. */
  print(text: string): void {
    this.opts.onStderr?.(text);
  }

  async close(): Promise<void> {
    await this.kill();
  }

  async kill(): Promise<void> {
    if (!this.service) return;
    this.service = undefined;
    if (shared.active === this) shared.active = undefined;
    left();
  }

  /** No process stands for the engine here. */
  killEngine(): void {}

  protected call<Req, Res>(method: RequestMethod, req: Req): Promise<Res> {
    const service = this.service;
    if (!service) return Promise.reject(new ProviderError(`native host is not running (${method})`, 14));
    shared.active = this;
    const request =
      method === "configure"
        ? nativeConfigure(req as InstanceType<typeof provpb.ConfigureRequest>)
        : withEngineTimeout(method, nativeTyped(req), this.customTimeouts);
    const handler = (service as unknown as Record<string, Handler>)[method];
    return new Promise<Res>((resolve, reject) =>
      handler({ request }, (e, res) => {
        if (!e) return resolve(res as Res);
        const message = e.details || e.message || "";
        reject(new ProviderError(message, e.code ?? 2, decodeInitFailure(e as Parameters<typeof decodeInitFailure>[0])));
      }),
    );
  }
}

/** Configure as the engine sends it to the `clouddb` package's provider: its own keys, without their namespace. */
function nativeConfigure(req: InstanceType<typeof provpb.ConfigureRequest>): InstanceType<typeof provpb.ConfigureRequest> {
  const args = fromStruct(req.getArgs());
  const own = Object.fromEntries(
    Object.entries(args)
      .filter(([k]) => k.startsWith("clouddb:"))
      .map(([k, v]) => [k.slice("clouddb:".length), v]),
  );
  return new provpb.ConfigureRequest().setArgs(toStruct(own)).setAcceptsecrets(true).setAcceptresources(true);
}

/** The property bag of each request that carries the program's inputs, by method. */
const INPUTS: Partial<Record<RequestMethod, { get: string; set: string }>> = {
  check: { get: "getNews", set: "setNews" },
  diff: { get: "getNews", set: "setNews" },
  create: { get: "getProperties", set: "setProperties" },
  update: { get: "getNews", set: "setNews" },
};

/**
 * A request whose inputs may hold the SDK's `timeouts`, as the engine sends a native provider
 * the program's `customTimeouts`: without the input, a Create's or Update's `timeout` its
 * seconds. `given` holds each resource's, by URN, from its Check (whose inputs the Create or
 * Update then gets, without them), as the engine holds a registration's options.
 */
function withEngineTimeout<Req>(method: RequestMethod, req: Req, given: Map<string, unknown>): Req {
  const bag = INPUTS[method];
  if (bag === undefined) return req;
  const r = req as unknown as Record<string, (arg?: unknown) => unknown>;
  const urn = r.getUrn() as string;
  const { timeouts, ...inputs } = fromStruct(r[bag.get]() as Parameters<typeof fromStruct>[0]);
  if (timeouts !== undefined) r[bag.set](toStruct(inputs));
  if (method === "check") given.set(urn, timeouts);
  const seconds = (given.get(urn) as Record<string, number | string | undefined> | undefined)?.[method];
  if ((method === "create" || method === "update") && seconds !== undefined) r.setTimeout(parseDuration(seconds) / 1000);
  return req;
}

/** A resource request of the SDK's dynamic type, for the native one. */
function nativeTyped<Req>(req: Req): Req {
  const r = req as unknown as { getUrn(): string; setUrn(u: string): unknown; setType?(t: string): unknown; getType?(): string };
  r.setUrn(nativeUrn(r.getUrn()));
  const type = r.getType?.();
  if (type !== undefined) r.setType?.(type.replace(/^pulumi-nodejs:dynamic\/clouddb:(\w+)$/, "clouddb:index:$1"));
  return req;
}
