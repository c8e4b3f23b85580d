// @ts-check
/**
 * The Node.js route's bundle without gRPC's client side before the port: the plugin serves
 * the engine (gRPC's server) at every start, and calls the engine (gRPC's client: channels,
 * subchannels, resolvers' channels, load balancers, retries, HTTP proxies, about half of
 * `@grpc/grpc-js`) only to log a message to it (provider/native/engineLog.ts), which most
 * starts never do. `@grpc/grpc-js`'s index loads both at once; in the bundle it is replaced by
 * {@link leanIndex}: the server's exports taken from their own modules, every other export a
 * getter that runs the part {@link GRPC_CLIENT} (the whole index, built beside the bundle like
 * the other parts, taking the modules it shares with the bundle from the bundle) the first
 * time it is used, and `makeGenericClientConstructor` (which the protocol's generated stubs
 * call as they load) a constructor that makes the real one at its first `new`. gRPC's
 * `channelz` and `orca` modules, which the server loads, require `./make-client` for
 * functions they call only when serving channelz or ORCA (never here): there it is a stand-in
 * handing on the part's module when first used.
 */
"use strict";
const path = require("path");
const { proxyStandIn } = require("./standIn");

/** The part holding gRPC's whole index: the client side, loaded at the first use of an export the server does not need. */
const GRPC_CLIENT = "grpc-client";

/**
 * The index's exports the server uses, each from its own module: name in the index to [module, name in it].
 * @type {Record<string, [string, string]>}
 */
const SERVER_EXPORTS = {
  Server: ["server", "Server"],
  ServerCredentials: ["server-credentials", "ServerCredentials"],
  Metadata: ["metadata", "Metadata"],
  status: ["constants", "Status"],
  logVerbosity: ["constants", "LogVerbosity"],
  propagate: ["constants", "Propagate"],
  compressionAlgorithms: ["compression-algorithms", "CompressionAlgorithms"],
  ServerListenerBuilder: ["server-interceptors", "ServerListenerBuilder"],
  ResponderBuilder: ["server-interceptors", "ResponderBuilder"],
  ServerInterceptingCall: ["server-interceptors", "ServerInterceptingCall"],
};

/**
 * The resolvers the server needs registered before it binds (`bindAsync` resolves its address
 * through them, "dns" the default scheme): what the index's own start does for them.
 */
const SERVER_RESOLVERS = ["resolver-dns", "resolver-uds", "resolver-ip"];

/** Modules of gRPC that the server's modules require for the client side alone: stand-ins in the bundle. */
const CLIENT_MODULES = ["make-client"];

/** The index's exports that make client classes as the stubs load: made for real at their first `new`. */
const CLIENT_CONSTRUCTORS = ["makeClientConstructor", "makeGenericClientConstructor"];

/** The expression loading the part (its exports: `{ index, modules }`), as the bundle's stand-ins run it. */
const LOAD = `(() => {
  const hook = globalThis[Symbol.for("clouddb.plugin.loadPart")];
  if (typeof hook !== "function") throw new Error(${JSON.stringify(`${GRPC_CLIENT} is a part of the plugin's bundle, which its loader alone runs`)});
  return hook(${JSON.stringify(GRPC_CLIENT)});
})`;

/**
 * The bundle's `@grpc/grpc-js`: see the module's description. Checked against the installed
 * index: each server export must be the index's own, and no export may be left out; else the
 * build fails, naming it (a gRPC whose layout changed).
 * @param {string} src gRPC's `build/src` folder
 */
function leanIndex(src) {
  const index = require(path.join(src, "index.js"));
  const lines = ['"use strict";', 'Object.defineProperty(exports, "__esModule", { value: true });', `const load = ${LOAD};`];
  const define = (/** @type {string} */ name, /** @type {string} */ get) =>
    lines.push(`Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => ${get} });`);
  for (const name of Object.keys(index)) {
    const server = SERVER_EXPORTS[name];
    if (server !== undefined) {
      const file = path.join(src, `${server[0]}.js`);
      if (require(file)[server[1]] !== index[name]) throw new Error(`@grpc/grpc-js's ${name} is not ${server[0]}.js's ${server[1]}`);
      define(name, `require(${JSON.stringify(file)})[${JSON.stringify(server[1])}]`);
    } else if (CLIENT_CONSTRUCTORS.includes(name)) {
      lines.push(`const ${name} = (...args) => {
  let made;
  const real = () => (made ??= load().index[${JSON.stringify(name)}](...args));
  return Object.assign(function (...a) { return new (real())(...a); }, { service: args[0], serviceName: args[1] });
};`);
      define(name, name);
    } else {
      define(name, `load().index[${JSON.stringify(name)}]`);
    }
  }
  const missing = Object.keys(SERVER_EXPORTS).filter((k) => !(k in index));
  if (missing.length > 0) throw new Error(`@grpc/grpc-js exports no ${missing.join(", ")}`);
  for (const r of SERVER_RESOLVERS) lines.push(`require(${JSON.stringify(path.join(src, `${r}.js`))}).setup();`);
  return lines.join("\n");
}

/**
 * esbuild's plugin putting {@link leanIndex} in place of `@grpc/grpc-js`, and a stand-in in
 * place of each of {@link CLIENT_MODULES} that a module of gRPC requires (the bundle of the
 * Node.js route only: the part {@link GRPC_CLIENT} is built without it).
 * @type {import("esbuild").Plugin}
 */
const grpcServerOnly = {
  name: "grpc-server-only",
  setup(build) {
    build.onResolve({ filter: /^@grpc\/grpc-js$/ }, async (args) => {
      if (args.pluginData?.grpcIndex) return undefined;
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: { grpcIndex: true },
      });
      return r.errors.length > 0 ? undefined : { path: path.dirname(r.path), namespace: "grpc-lean" };
    });
    build.onLoad({ filter: /.*/, namespace: "grpc-lean" }, (args) => ({
      contents: leanIndex(args.path),
      loader: "js",
      resolveDir: args.path,
    }));
    const modules = new RegExp(`^\\./(${CLIENT_MODULES.join("|")})$`);
    build.onResolve({ filter: modules }, (args) =>
      /[\\/]@grpc[\\/]grpc-js[\\/]build[\\/]src$/.test(args.resolveDir)
        ? { path: args.path.slice(2), namespace: "grpc-client-module" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "grpc-client-module" }, (args) => ({
      contents: `"use strict";
const load = ${LOAD};
const real = () => load().modules[${JSON.stringify(args.path)}];
${proxyStandIn("real()")}`,
      loader: "js",
    }));
  },
};

/** The part's source: gRPC's whole index, and the modules the bundle has stand-ins of. */
const grpcClientSource = () =>
  `module.exports = { index: require("@grpc/grpc-js"), modules: { ${CLIENT_MODULES.map(
    (m) => `${JSON.stringify(m)}: require("@grpc/grpc-js/build/src/${m}")`,
  ).join(", ")} } };`;

module.exports = { grpcServerOnly, grpcClientSource, GRPC_CLIENT, leanIndex };
