/**
 * The `clouddb` provider as the native plugin serves it, in the protocol's terms but free of
 * gRPC (server.ts binds it): the provider's configuration, the four resource types
 * (resources.ts) and the seven functions (functions.ts). Every call about a resource runs
 * {@link withinResource} its URN, so what the framework tells the user lands under it in the
 * CLI; a create, update or delete that waits long says so there.
 */
import { saveCompileCache } from "../framework/compileCache";
import { describeMs } from "../framework/timeouts";
import { cancelOperations } from "../framework/cancellation";
import type { ConfigSource } from "../framework/settings";
import { userOperation, type UserOperation } from "../framework/userErrors";
import { LOOKUPS, type Lookup } from "../lookups";
import type { RegisteredResource } from "../resources/registration";
import { RESOURCES } from "../resources/registry";
import { checkConfig, configureProvider, configSourceOf, diffConfig } from "./config";
import type { NativeDiff } from "./detailedDiff";
import { withinResource, type LogSink } from "./engineLog";
import { UnsupportedRequestError } from "./errors";
import { forEngine } from "./failures";
import { argumentFailures, functionOf, runFunction } from "./functions";
import type { Bag } from "./protos";
import { PACKAGE_SCHEMA, PLUGIN_VERSION, SECRET_CONFIG_KEYS } from "./packageSchema";
import { NativeResource, type Failure, type Out } from "./resources";
import { ownerOf, urnParts } from "./urns";
import type { Wired } from "./wire";

/** How often an operation that waits says so, in ms: `CLOUDDB_PROGRESS_MS`, else 30 s. */
function progressEveryMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.CLOUDDB_PROGRESS_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 30_000;
}

/**
 * What a provider serves: its resource types and its functions. The plugin serves the
 * registry's and the lookups' table; a test may serve a kind of its own, defined in one file
 * (tests/fifthKind), through the very same code.
 */
export interface Served {
  /** The resource types, each as the registry lists it. */
  readonly resources: readonly RegisteredResource[];
  /** The functions, by name (`getVpc`: `clouddb:index:getVpc`). */
  readonly lookups: Readonly<Record<string, Lookup>>;
}

/** What the plugin serves: every registered resource type and every lookup. */
export const SERVED: Served = { resources: RESOURCES, lookups: LOOKUPS };

/** The `clouddb` provider of one plugin process. */
export class ClouddbProvider {
  private readonly resources: ReadonlyMap<string, NativeResource>;
  private readonly lookups: Readonly<Record<string, Lookup>>;
  private config: ConfigSource = configSourceOf({});
  /** The plugin's version. */
  readonly version = PLUGIN_VERSION;

  /**
   * @param log where messages about resources go (the engine's log)
   * @param served the resource types and functions it serves ({@link SERVED} unless given)
   */
  constructor(
    private readonly log: LogSink,
    served: Served = SERVED,
  ) {
    this.resources = new Map(served.resources.map((r) => new NativeResource(r)).map((r) => [r.token, r]));
    this.lookups = served.lookups;
  }

  /** The package schema, as JSON text. */
  schema(): string {
    return PACKAGE_SCHEMA;
  }

  /** The resource type of `urn`. @throws UnsupportedRequestError for a type this provider does not serve */
  private resource(urn: string): NativeResource {
    const { type } = urnParts(urn);
    const r = this.resources.get(type);
    if (!r)
      throw new UnsupportedRequestError(
        `clouddb serves no resource type ${JSON.stringify(type)}: it serves ${[...this.resources.keys()].join(", ")}`,
      );
    return r;
  }

  /**
   * The provider's inputs, checked: each key known and each value given usable. A failure on
   * `apiKey`, on a key given as a secret, or on a value holding a credential (`apiUrl`'s
   * `user:password@`) names the key in its reason only (failures.ts).
   */
  async checkConfig(news: Wired): Promise<{ inputs: Out; failures: Failure[] }> {
    return {
      inputs: { props: news.props, secrets: [...news.secrets, ...SECRET_CONFIG_KEYS] },
      failures: forEngine(checkConfig(news.props), news, SECRET_CONFIG_KEYS),
    };
  }

  /** What changed in the provider's inputs: an update of the provider, never a replacement. */
  diffConfig(olds: Wired, news: Wired): NativeDiff {
    return diffConfig(olds.props, news.props);
  }

  /** Configures the provider with its inputs (and the environment, for what they do not give). */
  async configure(args: Wired): Promise<void> {
    this.config = configureProvider(args.props);
    // What `check` and `diff` need is loaded by now: keep it compiled for the next process
    // (the engine ends a plugin with a signal, and Node writes its compile cache only at a normal exit).
    saveCompileCache();
  }

  /** Checks a resource's inputs. */
  check(urn: string, olds: Wired, news: Wired): Promise<{ inputs: Out; failures: Failure[] }> {
    return withinResource(urn, () => this.resource(urn).check(urn, olds, news));
  }

  /** Diffs a resource's recorded outputs against its new inputs. */
  diff(urn: string, id: string, olds: Wired, news: Wired): Promise<NativeDiff> {
    return withinResource(urn, () => this.resource(urn).diff(id, olds, news));
  }

  /** Creates a resource (`preview`: says what it will have). */
  create(urn: string, news: Wired, preview: boolean, timeout: number): Promise<{ id: string; outs: Out }> {
    const r = this.resource(urn);
    return withinResource(urn, () =>
      preview ? r.create(urn, news, true, timeout) : this.waiting(urn, r, "create", () => r.create(urn, news, false, timeout)),
    );
  }

  /** Reads a resource (refresh, import, a lookup by id). */
  read(urn: string, id: string, props: Wired, inputs: Wired): Promise<{ id: string; outs?: Out; inputs?: Out }> {
    return withinResource(urn, () => this.resource(urn).read(id, props, inputs));
  }

  /** Updates a resource (`preview`: says what it will have). */
  update(urn: string, id: string, olds: Wired, news: Wired, preview: boolean, timeout: number): Promise<{ outs: Out }> {
    const r = this.resource(urn);
    const run = (): Promise<{ outs: Out }> => r.update(urn, id, olds, news, preview, timeout);
    return withinResource(urn, () => (preview ? run() : this.waiting(urn, r, "update", run)));
  }

  /** Deletes a resource (an adopted one stays in the cloud, and the CLI says so under it); `oldInputs`: its inputs as state recorded them. */
  delete(urn: string, id: string, props: Wired, timeout: number, oldInputs?: Wired): Promise<void> {
    const r = this.resource(urn);
    return withinResource(urn, () => this.waiting(urn, r, "delete", () => r.delete(id, props, timeout, oldInputs)));
  }

  /** Runs a function; failures name what is wrong with its arguments (never quoting one given as a secret). */
  async invoke(token: string, args: Wired): Promise<{ result?: Bag; failures: Failure[] }> {
    const spec = functionOf(token, this.lookups);
    if (!spec) throw new UnsupportedRequestError(`clouddb has no function ${JSON.stringify(token)}`);
    const failures = forEngine(argumentFailures(spec, args.props), args);
    if (failures.length > 0) return { failures };
    return { result: await runFunction(spec, args.props, this.config), failures: [] };
  }

  /**
   * The engine's Cancel (the user interrupted `pulumi up`): the process's cancellation signal
   * aborts (framework/cancellation.ts), so every wait and pause ends at once, those under way
   * and any that starts later, in every client, made before or after: a create waiting for
   * its resource fails as a partial failure, which keeps the resource in state for the next
   * `up` to resume; a request already sent gets its answer first.
   */
  async cancel(): Promise<void> {
    cancelOperations("Pulumi cancelled the operation (Ctrl-C)");
  }

  /** Runs `operation` (a `kind` of operation on resource `r`), telling the CLI under the resource every so often how long it has been at it. */
  private async waiting<T>(urn: string, r: NativeResource, kind: UserOperation, operation: () => Promise<T>): Promise<T> {
    const doing = userOperation(kind, r.kind, ownerOf(urn, r.kind));
    const started = Date.now();
    const every = progressEveryMs();
    let told = 0;
    const timer = setInterval(() => {
      told += 1;
      // The first stays in the CLI's output; later ones replace each other as the resource's status.
      void this.log.log("info", `still ${doing} after ${describeMs(Date.now() - started)}`, urn, told > 1);
    }, every);
    try {
      return await operation();
    } finally {
      clearInterval(timer);
    }
  }
}
