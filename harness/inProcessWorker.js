// @ts-check
/**
 * The body of the dynamic-provider plugin, run in a worker thread of the test process by
 * harness/inProcessHost.ts: what each RPC of `ResourceProviderService` does between reading its
 * request and writing its response (pulumi/pulumi v3.248.0, sdk/nodejs/cmd/dynamic-provider/
 * index.ts: `getProvider` L62-84, `configure` L111-131, `check` L140-193, `diff` L195-245,
 * `create` L247-264, `read` L266-306, `update` L308-330, `delete` L332-345,
 * `resultIncludingProvider` L434-438). The protobuf halves (requests read with
 * `toJavaScript`, responses built with `fromJavaScript`, errors as gRPC statuses) stay in the
 * host, which owns the same protobuf classes the engine's side uses.
 *
 * One worker per engine run, as one plugin process per run: a worker has a module registry,
 * globals and `process.env` of its own, so the provider's module state (settings, caches,
 * journal, priors) starts fresh each run, as in a new process.
 */
"use strict";
const { createRequire } = require("module");
const path = require("path");
const { parentPort, workerData } = require("worker_threads");

/** @typedef {Record<string, unknown>} Props */
/**
 * @typedef {{
 *   configure?: (req: { config: unknown }) => Promise<void> | void;
 *   check?: (olds: Props, news: Props) => Promise<{ inputs?: Props; failures?: { property: string; reason: string }[] }>;
 *   diff?: (id: string, olds: Props, news: Props) => Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
 *   create: (inputs: Props) => Promise<{ id: string; outs?: Props }>;
 *   read?: (id: string, props: Props) => Promise<{ id: string; props?: Props; inputs?: Props }>;
 *   update?: (id: string, olds: Props, news: Props) => Promise<{ outs?: Props } | undefined>;
 *   delete?: (id: string, props: Props) => Promise<void>;
 * }} DynamicProvider
 */

const PROVIDER_KEY = "__provider";
const port = /** @type {import("worker_threads").MessagePort} */ (parentPort);
/** @type {{ cwd: string }} */
const { cwd } = workerData;

// The plugin resolves `@pulumi/pulumi/cmd/dynamic-provider` from the program's directory
// (the `pulumi-resource-pulumi-nodejs` shim); its `require-from-string` and `Config` are that copy's.
const fromProgram = createRequire(path.join(cwd, "[dynamic-provider]"));
const fromPulumi = createRequire(fromProgram.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"));
/** @type {(code: string, filename?: string) => { handler: () => DynamicProvider }} */
const requireFromString = fromPulumi("require-from-string");
/** @type {new (raw: Record<string, unknown>, project: string) => unknown} */
const Config = fromPulumi("./config").Config;

// As index.ts L16 (`source-map-support/register`): stack traces through source maps.
process.setSourceMapsEnabled(true);

// As index.ts L40-52: every uncaught error is printed, once.
const uncaught = new Set();
/** @param {unknown} err */
function uncaughtHandler(err) {
  if (uncaught.has(err)) return;
  uncaught.add(err);
  const e = /** @type {{ stack?: string; message?: string }} */ (err);
  console.error(e?.stack || e?.message || "" + err);
}
process.on("uncaughtException", uncaughtHandler);
process.on("unhandledRejection", uncaughtHandler);

/** @type {Map<string, DynamicProvider>} */
const providerCache = new Map();
/** @type {Record<string, unknown>} */
let config = {};

/**
 * index.ts `getProvider`: the provider deserialized from `props.__provider`, configured with
 * the config once per process. The module is compiled with a file name in the program's
 * directory, so its `require` resolves from there, as it does in the plugin (whose working
 * directory that is).
 * @param {Props} props
 */
async function getProvider(props) {
  const text = /** @type {string} */ (props[PROVIDER_KEY]);
  let provider = providerCache.get(text);
  if (!provider) {
    provider = requireFromString(text, path.join(cwd, "[__provider]")).handler();
    providerCache.set(text, provider);
    if (provider.configure) {
      // metadata.getProject() reads PULUMI_NODEJS_PROJECT (runtime/settings.ts `options`).
      await provider.configure({ config: new Config(config, process.env.PULUMI_NODEJS_PROJECT ?? "") });
    }
  }
  return provider;
}

/**
 * @param {unknown} e
 * @param {boolean} logged the RPC prints it first (`console.error(`${e}: ${e.stack}`)`), as every RPC but create and update does
 */
function failure(e, logged) {
  const err = /** @type {Record<string, unknown>} */ (typeof e === "object" && e !== null ? e : { message: String(e) });
  if (logged) console.error(`${e}: ${err.stack}`);
  return {
    message: typeof err.message === "string" ? err.message : "",
    code: err.code,
    details: err.details,
    id: err.id,
    properties: err.properties,
    reasons: err.reasons,
  };
}

/** @type {Record<string, (a: any) => Promise<unknown>>} */
const rpcs = {
  /** @param {{ config: Record<string, unknown> }} a */
  async configure(a) {
    config = a.config;
  },
  /** @param {{ olds: Props; news: Props; unknown: string }} a */
  async check({ olds, news, unknown }) {
    const provider = await getProvider(news[PROVIDER_KEY] === unknown ? olds : news);
    let inputs = news;
    /** @type {{ property: string; reason: string }[]} */
    let failures = [];
    if (provider.check) {
      const result = await provider.check(olds, news);
      if (result.inputs) inputs = result.inputs;
      if (result.failures) failures = result.failures;
    }
    inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
    return { inputs, failures };
  },
  /** @param {{ id: string; olds: Props; news: Props; unknown: string }} a */
  async diff({ id, olds, news, unknown }) {
    const provider = await getProvider(news[PROVIDER_KEY] === unknown ? olds : news);
    if (!provider.diff) return { diffed: false };
    const result = await provider.diff(id, olds, news);
    return { diffed: true, changes: result.changes, replaces: result.replaces, deleteBeforeReplace: result.deleteBeforeReplace };
  },
  /** @param {{ props: Props }} a */
  async create({ props }) {
    const provider = await getProvider(props);
    const result = await provider.create(props);
    return { id: result.id, props: withProvider(result.outs, props) };
  },
  /** @param {{ id: string; props: Props }} a */
  async read({ id, props }) {
    const provider = await getProvider(props);
    if (!provider.read) return { id, props, asIs: true };
    const result = await provider.read(id, props);
    return {
      id: result.id,
      props: withProvider(result.props, props),
      ...(result.inputs ? { inputs: withProvider(result.inputs, props) } : {}),
    };
  },
  /** @param {{ id: string; olds: Props; news: Props }} a */
  async update({ id, olds, news }) {
    const provider = await getProvider(news);
    const result = provider.update ? ((await provider.update(id, olds, news)) ?? {}) : {};
    return { props: withProvider(result.outs, news) };
  },
  /** @param {{ id: string; props: Props }} a */
  async delete({ id, props }) {
    const provider = await getProvider(props);
    if (provider.delete) await provider.delete(id, props);
    return {};
  },
};

/**
 * index.ts `resultIncludingProvider`.
 * @param {Props | undefined} result
 * @param {Props} props
 */
function withProvider(result, props) {
  return Object.assign(result || {}, { [PROVIDER_KEY]: props[PROVIDER_KEY] });
}

port.on("message", (/** @type {{ seq: number; method: string; args: unknown }} */ msg) => {
  // create and update answer with the error's status (grpcResponseFromError); the others print it first.
  const logged = msg.method !== "create" && msg.method !== "update";
  Promise.resolve()
    .then(() => rpcs[msg.method](msg.args))
    .then((result) => port.postMessage({ seq: msg.seq, result }))
    // A result that cannot be copied out fails as the plugin fails to encode it: an error of that call.
    .catch((e) => port.postMessage({ seq: msg.seq, error: failure(e, logged) }));
});
