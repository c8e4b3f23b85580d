/**
 * What the harness's engine asks of a provider host, whatever serves it: the requests of the
 * ResourceProvider protocol built and read as the engine builds and reads them (protobuf in,
 * protobuf out), and the life of the host (started, closed as the engine closes it, killed).
 * {@link PluginHost} sends them over gRPC to the real dynamic-provider plugin process;
 * {@link InProcessHost} serves them in this process, as that plugin's code does.
 */
import { fromStruct, JsonObject, provpb, toStruct } from "./protos";
import { secretValue } from "./secrets";

/** Details of an ErrorResourceInitFailed: the resource exists but did not initialize. */
export interface InitFailure {
  id: string;
  properties: JsonObject;
  reasons: string[];
}

const PROVIDER_ERROR_BRAND = "__harnessProviderError";

/** An RPC to the plugin failed. `initFailure` is set when the error was ErrorResourceInitFailed. */
export class ProviderError extends Error {
  /** Brand so the error is recognised across module copies. */
  public readonly [PROVIDER_ERROR_BRAND] = true;
  constructor(
    message: string,
    /** gRPC status code. */
    public readonly code: number,
    /** Set when the provider threw an error carrying an `id`. */
    public readonly initFailure?: InitFailure,
  ) {
    super(message);
    this.name = "ProviderError";
  }
  /** True when `e` is a {@link ProviderError} (from any copy of this module). */
  static isInstance(e: unknown): e is ProviderError {
    return typeof e === "object" && e !== null && (e as Record<string, unknown>)[PROVIDER_ERROR_BRAND] === true;
  }
}

/** Options of a provider host: what the engine gives the plugin process it starts. */
export interface ProviderHostOptions {
  /** Project name: `PULUMI_NODEJS_PROJECT` and `PULUMI_PROJECT` of the provider's environment. */
  project: string;
  /** The program's directory: the plugin's working directory, where the serialized provider's `require` resolves. */
  cwd: string;
  /** Extra environment variables of the provider (on top of this process's environment). */
  env: Record<string, string>;
  /** Called with everything the provider writes to stderr. */
  onStderr?: (text: string) => void;
  /** Called with everything the provider writes to stdout (a plugin's, after its port). */
  onStdout?: (text: string) => void;
}

/** The requests of the ResourceProvider protocol the harness sends. */
export type RequestMethod = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

/** Result of Check. */
export interface CheckResult {
  inputs: JsonObject;
  failures: { property: string; reason: string }[];
}
/** Result of Diff. `changes` is "none", "some" or "unknown" (the provider left `changes` undefined). */
export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}
/** Result of Read. Empty `id`: the resource is gone. */
export interface ReadResult {
  id: string;
  properties: JsonObject;
  /** Present only when the provider's read returned `inputs`. */
  inputs?: JsonObject;
}

/**
 * A provider host as one engine run uses it: one per run, started, configured, asked, then
 * closed (or left running when the engine died). Subclasses say how a request reaches the
 * provider ({@link ProviderHost.call}) and how the host lives and dies.
 */
export abstract class ProviderHost {
  /** True while the host can answer. */
  abstract get running(): boolean;
  /** Process id of the host's provider process, when it is one. */
  abstract get pid(): number | undefined;
  /** Starts the host; resolves once it can answer. */
  abstract start(): Promise<void>;
  /** Ends the host as the engine ends a plugin at the end of a run. */
  abstract close(): Promise<void>;
  /** Ends the host at once, as SIGKILL does: no cleanup, in-flight requests fail. */
  abstract kill(): Promise<void>;
  /** The engine dies (kill -9 of the CLI); the host goes on, orphaned, as a plugin would. */
  abstract killEngine(): void;

  /**
   * Sends one request of the ResourceProvider protocol (`method` as the generated gRPC client
   * names it) and resolves with its response; rejects with a {@link ProviderError}.
   */
  protected abstract call<Req, Res>(method: RequestMethod, req: Req): Promise<Res>;

  /**
   * Configure, as the engine configures the default `pulumi-nodejs` provider (provider_plugin.go
   * `Configure` L1022-1131; pkg/resource/deploy/target.go `GetPackageConfig` L45-70): `args` is the
   * whole stack config with namespaced keys, values set with `--secret` marked secret; the
   * deprecated `variables` hold the same values in plain text under `pulumi-nodejs:config:<key>`.
   */
  async configure(config: Record<string, string>, secretKeys: readonly string[]): Promise<void> {
    const req = new provpb.ConfigureRequest();
    const secret = new Set(secretKeys);
    req.setArgs(toStruct(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secret.has(k) ? secretValue(v) : v]))));
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) vars.set(`pulumi-nodejs:config:${k}`, v);
    req.setType("pulumi:providers:pulumi-nodejs");
    req.setName("default");
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setSendsOldInputs(true);
    req.setSendsOldInputsToDelete(true);
    await this.call<typeof req, InstanceType<typeof provpb.ConfigureResponse>>("configure", req);
  }

  /** Check(urn, olds, news). */
  async check(urn: string, olds: JsonObject, news: JsonObject): Promise<CheckResult> {
    const req = new provpb.CheckRequest();
    req.setUrn(urn);
    setNameType(req, urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const res = await this.call<typeof req, InstanceType<typeof provpb.CheckResponse>>("check", req);
    return {
      inputs: fromStruct(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Diff(id, olds = old outputs, news = checked inputs, oldInputs). */
  async diff(urn: string, id: string, olds: JsonObject, news: JsonObject, oldInputs: JsonObject): Promise<DiffResult> {
    const req = changeRequest(new provpb.DiffRequest(), urn, id, olds, news, oldInputs);
    const res = await this.call<typeof req, InstanceType<typeof provpb.DiffResponse>>("diff", req);
    const C = provpb.DiffResponse.DiffChanges;
    const c = res.getChanges();
    return {
      changes: c === C.DIFF_NONE ? "none" : c === C.DIFF_SOME ? "some" : "unknown",
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  /** Create(properties). Rejects with {@link ProviderError} (with `initFailure` when the error carried an id). */
  async create(urn: string, properties: JsonObject): Promise<{ id: string; properties: JsonObject }> {
    const req = new provpb.CreateRequest();
    req.setUrn(urn);
    setNameType(req, urn);
    req.setProperties(toStruct(properties));
    const res = await this.call<typeof req, InstanceType<typeof provpb.CreateResponse>>("create", req);
    return { id: res.getId(), properties: fromStruct(res.getProperties()) };
  }

  /** Update(id, olds = old outputs, news = checked inputs, oldInputs). */
  async update(urn: string, id: string, olds: JsonObject, news: JsonObject, oldInputs: JsonObject): Promise<JsonObject> {
    const req = changeRequest(new provpb.UpdateRequest(), urn, id, olds, news, oldInputs);
    const res = await this.call<typeof req, InstanceType<typeof provpb.UpdateResponse>>("update", req);
    return fromStruct(res.getProperties());
  }

  /** Read(id, properties = stored outputs incl. `__provider`, inputs). */
  async read(urn: string, id: string, properties: JsonObject, inputs?: JsonObject): Promise<ReadResult> {
    const req = new provpb.ReadRequest();
    req.setUrn(urn);
    setNameType(req, urn);
    req.setId(id);
    req.setProperties(toStruct(properties));
    if (inputs) req.setInputs(toStruct(inputs));
    const res = await this.call<typeof req, InstanceType<typeof provpb.ReadResponse>>("read", req);
    const out: ReadResult = { id: res.getId(), properties: fromStruct(res.getProperties()) };
    if (res.hasInputs()) out.inputs = fromStruct(res.getInputs());
    return out;
  }

  /** Delete(id, properties = stored outputs, oldInputs). A rejection means the resource still exists. */
  async delete(urn: string, id: string, properties: JsonObject, oldInputs: JsonObject): Promise<void> {
    const req = new provpb.DeleteRequest();
    req.setUrn(urn);
    setNameType(req, urn);
    req.setId(id);
    req.setProperties(toStruct(properties));
    req.setOldInputs(toStruct(oldInputs));
    await this.call<typeof req, unknown>("delete", req);
  }
}

/** The two requests that carry a change: Diff and Update. */
type ChangeRequest = InstanceType<typeof provpb.DiffRequest> | InstanceType<typeof provpb.UpdateRequest>;

/** Fills what a Diff and an Update request share: the resource, its old outputs and inputs, the checked news. */
function changeRequest<R extends ChangeRequest>(
  req: R,
  urn: string,
  id: string,
  olds: JsonObject,
  news: JsonObject,
  oldInputs: JsonObject,
): R {
  req.setUrn(urn);
  setNameType(req, urn);
  req.setId(id);
  req.setOlds(toStruct(olds));
  req.setNews(toStruct(news));
  req.setOldInputs(toStruct(oldInputs));
  return req;
}

function setNameType(req: { setName(n: string): unknown; setType(t: string): unknown }, urn: string): void {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  req.setType(qualified.split("$").pop() ?? "");
  req.setName(parts.slice(3).join("::"));
}
