// @ts-check
/**
 * The no-op provider of bench/noop-provider, served from Node.js: the same `noop:index:Thing`
 * (bench/noop-provider/schema.json), the same answers (thing.go), on `@grpc/grpc-js` and
 * `@pulumi/pulumi`'s generated messages, as a Node.js provider plugin is written with Pulumi's
 * own libraries and as the native plugin serves the engine. No call leaves the process. Beside
 * the Go floor it shows what Node.js and its gRPC stack cost the engine before any provider's
 * own work (`npm run bench:turns -- --hosts floor-yaml,node-floor-yaml,native-yaml`;
 * docs/performance/large-stacks.md). The engine starts it through `pulumi-resource-noop`
 * beside this file (a shell script); it serves until its standard input closes or a signal ends it.
 */
"use strict";
const { randomBytes } = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

// Node.js's compile cache (22.1 and later), as the native plugin keeps V8's code cache: a later
// start loads gRPC and the protocol's messages compiled.
/** @type {{ enableCompileCache?: (dir: string) => unknown }} */ (require("module")).enableCompileCache?.(
  path.join(os.tmpdir(), "clouddb-noop-node-compile-cache"),
);

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/** @param {string} id */
const load = (id) => require(require.resolve(id, { paths: [pulumiDir] }));
/** @type {typeof import("@grpc/grpc-js")} */
const grpc = load("@grpc/grpc-js");
/** @type {typeof import("@pulumi/pulumi/proto/provider_pb")} */
const provpb = load("@pulumi/pulumi/proto/provider_pb");
/** @type {typeof import("@pulumi/pulumi/proto/provider_grpc_pb")} */
const provgrpc = load("@pulumi/pulumi/proto/provider_grpc_pb");
/** @type {typeof import("@pulumi/pulumi/proto/plugin_pb")} */
const pluginpb = load("@pulumi/pulumi/proto/plugin_pb");
/** @type {typeof import("google-protobuf/google/protobuf/struct_pb")} */
const structpb = load("google-protobuf/google/protobuf/struct_pb");
/** @type {typeof import("google-protobuf/google/protobuf/empty_pb")} */
const emptypb = load("google-protobuf/google/protobuf/empty_pb");

const VERSION = "0.0.1";
const SCHEMA = fs.readFileSync(path.join(__dirname, "..", "noop-provider", "schema.json"), "utf8").replace("%s", VERSION);
/** The inputs whose change replaces a Thing. */
const REPLACES = new Set(["name"]);

const newId = () => randomBytes(8).toString("hex");
/** @param {string} value a secret as the engine's wire has it */
const secret = (value) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
/** @param {unknown} v */
const canonical = (v) =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/**
 * The outputs of a Thing made from `inputs`: as thing.go's `outputs` (the inputs, the id, the
 * time of creation, and a clouddb Service's other outputs in the same shape).
 * @param {Record<string, any>} inputs
 * @param {string} id
 * @param {string} created
 */
function outputs(inputs, id, created) {
  const fields = Object.fromEntries(Object.entries(inputs).filter(([k]) => !k.startsWith("__")));
  const host = `t-${id}.noop.example.com`;
  const password = newId() + newId() + newId();
  const defaults = {
    projectId: "noop000001",
    name: `thing-${id}`,
    serviceType: "TIMESCALEDB",
    regionCode: "us-east-1",
    status: "READY",
    port: 5432,
    connectionPooler: false,
    cpuMillis: 500,
    memoryGbs: 2,
    haReplicas: { replicaCount: 0, syncReplicaCount: 0 },
    environment: "DEV",
    paused: false,
  };
  for (const [k, v] of Object.entries(defaults)) if (!(k in fields)) fields[k] = v;
  return {
    ...fields,
    serviceId: id,
    resources: [{ id: `${id}-0`, cpuMillis: fields.cpuMillis, memoryGbs: fields.memoryGbs, volumeType: "gp3" }],
    created,
    host,
    password: secret(password),
    connectionString: secret(`postgres://tsdbadmin:${password}@${host}:5432/tsdb?sslmode=require`),
  };
}

/** @param {import("google-protobuf/google/protobuf/struct_pb").Struct | undefined} s */
const plain = (s) => /** @type {Record<string, any>} */ (s?.toJavaScript() ?? {});
/** @param {Record<string, any>} o */
const struct = (o) => structpb.Struct.fromJavaScript(o);

/**
 * A unary handler answering `answer(request)` at once.
 * @param {(req: any) => any} answer
 */
const unary = (answer) => (/** @type {any} */ call, /** @type {any} */ done) => done(null, answer(call.request));

/** @param {any} req a CheckRequest: its new inputs, as they are */
const check = (req) => new provpb.CheckResponse().setInputs(req.getNews());

const service = {
  getPluginInfo: unary(() => new pluginpb.PluginInfo().setVersion(VERSION)),
  getSchema: unary(() => new provpb.GetSchemaResponse().setSchema(SCHEMA)),
  checkConfig: unary(check),
  diffConfig: unary(() => new provpb.DiffResponse()),
  configure: unary(() => new provpb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true)),
  check: unary(check),
  diff: unary((req) => {
    const olds = plain(req.getOldInputs());
    const news = plain(req.getNews());
    const diffs = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => canonical(olds[k]) !== canonical(news[k]));
    return new provpb.DiffResponse()
      .setChanges(diffs.length > 0 ? provpb.DiffResponse.DiffChanges.DIFF_SOME : provpb.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(diffs)
      .setReplacesList(diffs.filter((k) => REPLACES.has(k)));
  }),
  create: unary((req) => {
    const id = newId();
    return new provpb.CreateResponse().setId(id).setProperties(struct(outputs(plain(req.getProperties()), id, new Date().toISOString())));
  }),
  read: unary((req) => new provpb.ReadResponse().setId(req.getId()).setProperties(req.getProperties()).setInputs(req.getInputs())),
  update: unary((req) => {
    const created = plain(req.getOlds()).created;
    return new provpb.UpdateResponse().setProperties(struct(outputs(plain(req.getNews()), req.getId(), created)));
  }),
  delete: unary(() => new emptypb.Empty()),
  cancel: unary(() => new emptypb.Empty()),
};

const server = new grpc.Server({ "grpc.enable_channelz": 0 });
server.addService(provgrpc.ResourceProviderService, /** @type {any} */ (service));
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`${port}\n`);
});
process.stdin.on("end", () => process.exit(0)).resume();
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => process.exit(0));
