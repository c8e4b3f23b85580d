/**
 * The ResourceProvider gRPC service the engine calls, on the stubs `@pulumi/pulumi` ships,
 * serving a {@link ClouddbProvider}. Not `@pulumi/pulumi/provider`'s `main`, which answers
 * CheckConfig and DiffConfig "not implemented", never hands Configure's arguments to the
 * provider, announces no preview support and drops Diff's changed keys and detailed diff
 * (pulumi/pulumi#10915). Construct, Call and Parameterize are not served (the package has no
 * components, methods or parameterization), nor List, which gRPC answers UNIMPLEMENTED itself.
 */
import { redact } from "../client/redact";
import { saveCodeCache } from "../framework/codeCacheHook";
import type { NativeDiff, DiffKind } from "./detailedDiff";
import { UnsupportedRequestError, WiredInitError } from "./errors";
import type { ClouddbProvider } from "./provider";
import { anypb, emptypb, fromStruct, grpc, plugingpb, providergrpc, providerpb, statuspb, toStruct } from "./protos";
import type { Failure, Out } from "./resources";
import { fromWire, toWire, type Wired } from "./wire";

const KIND: Readonly<Record<DiffKind, providerpb.PropertyDiff.Kind>> = {
  add: providerpb.PropertyDiff.Kind.ADD,
  "add-replace": providerpb.PropertyDiff.Kind.ADD_REPLACE,
  delete: providerpb.PropertyDiff.Kind.DELETE,
  "delete-replace": providerpb.PropertyDiff.Kind.DELETE_REPLACE,
  update: providerpb.PropertyDiff.Kind.UPDATE,
  "update-replace": providerpb.PropertyDiff.Kind.UPDATE_REPLACE,
};

type Struct = Parameters<typeof fromStruct>[0];
const wired = (s: Struct): Wired => fromWire(fromStruct(s));
const out = (o: Out) => toStruct(toWire(o.props, o.secrets));

/**
 * The gRPC error for `e`, its message scrubbed of every registered secret (those the engine
 * sent as secrets among them: wire.ts), whatever threw it. A partial failure (the resource
 * exists) carries `ErrorResourceInitFailed` in the status details, as the engine reads it:
 * the id, the properties and inputs it keeps in state, and the reasons it shows.
 */
export function serviceError(e: unknown): grpc.ServiceError {
  const message = redact(e instanceof Error ? e.message : String(e));
  const metadata = new grpc.Metadata();
  if (WiredInitError.isInstance(e)) {
    const detail = new providerpb.ErrorResourceInitFailed();
    detail.setId(e.id);
    detail.setProperties(toStruct(e.properties));
    detail.setInputs(toStruct(e.inputs));
    detail.setReasonsList([message]);
    const any = new anypb.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statuspb.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** A unary handler running `fn` on the request; `answered` runs once the answer is handed to gRPC. */
function unary<Req, Res>(fn: (req: Req) => Promise<Res>, answered: () => void = () => undefined): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => {
        callback(null, res);
        answered();
      },
      (e: unknown) => {
        callback(serviceError(e));
        answered();
      },
    );
  };
}

/**
 * A call about a resource, or a function's: once answered, the release's loader may keep the
 * code the plugin compiled so far for the next process ({@link saveCodeCache}).
 */
function resourceCall<Req, Res>(fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return unary(fn, saveCodeCache);
}

/** A handler answering UNIMPLEMENTED. */
function unimplemented<Req, Res>(what: string): grpc.handleUnaryCall<Req, Res> {
  return (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by clouddb` });
}

function checkResponse(r: { inputs: Out; failures: readonly Failure[] }): providerpb.CheckResponse {
  const resp = new providerpb.CheckResponse();
  resp.setInputs(out(r.inputs));
  resp.setFailuresList(r.failures.map(failure));
  return resp;
}

function failure(f: Failure): providerpb.CheckFailure {
  const x = new providerpb.CheckFailure();
  x.setProperty(f.property);
  x.setReason(f.reason);
  return x;
}

/** The DiffResponse of `d`. */
export function diffResponse(d: NativeDiff): providerpb.DiffResponse {
  const resp = new providerpb.DiffResponse();
  const { DIFF_SOME, DIFF_NONE } = providerpb.DiffResponse.DiffChanges;
  resp.setChanges(d.changes ? DIFF_SOME : DIFF_NONE);
  resp.setReplacesList([...d.replaces]);
  resp.setDiffsList([...d.diffs]);
  resp.setHasdetaileddiff(true);
  const map = resp.getDetaileddiffMap();
  for (const [path, { kind, inputDiff }] of Object.entries(d.detailedDiff)) {
    const pd = new providerpb.PropertyDiff();
    pd.setKind(KIND[kind]);
    pd.setInputdiff(inputDiff);
    map.set(path, pd);
  }
  return resp;
}

/** The ResourceProvider service's handlers, List's left to gRPC (UNIMPLEMENTED). */
export type ProviderService = Omit<providergrpc.IResourceProviderServer, "list">;

/**
 * The provider a service serves, or the function that gives it: called by each request that
 * needs the provider, so a provider loaded on first use (main.ts) is there before any such
 * request is answered, and a failure to load it is that request's error.
 */
export type ProviderSource = ClouddbProvider | (() => ClouddbProvider);

/** The service implementation for `source`; `onEngine` hears of the engine's address when Handshake or Attach gives it. */
export function providerService(source: ProviderSource, onEngine: (address: string) => void = () => undefined): ProviderService {
  const p = typeof source === "function" ? source : () => source;
  const handshake = (): providerpb.ProviderHandshakeResponse => {
    const r = new providerpb.ProviderHandshakeResponse();
    return r.setAcceptSecrets(true).setAcceptResources(false).setAcceptOutputs(false);
  };
  return {
    handshake: unary(async (req: providerpb.ProviderHandshakeRequest) => {
      if (req.getEngineAddress()) onEngine(req.getEngineAddress());
      return handshake();
    }),
    getPluginInfo: unary(async () => new plugingpb.PluginInfo().setVersion(p().version)),
    getSchema: unary(async (req: providerpb.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new UnsupportedRequestError(`clouddb serves schema version 0, not ${req.getVersion()}`);
      return new providerpb.GetSchemaResponse().setSchema(p().schema());
    }),
    checkConfig: unary(async (req: providerpb.CheckRequest) => checkResponse(await p().checkConfig(wired(req.getNews())))),
    diffConfig: unary(async (req: providerpb.DiffRequest) => diffResponse(p().diffConfig(wired(req.getOlds()), wired(req.getNews())))),
    configure: unary(async (req: providerpb.ConfigureRequest) => {
      await p().configure(wired(req.getArgs()));
      return new providerpb.ConfigureResponse()
        .setAcceptsecrets(true)
        .setAcceptresources(false)
        .setAcceptoutputs(false)
        .setSupportspreview(true);
    }),
    invoke: resourceCall(async (req: providerpb.InvokeRequest) => {
      const r = await p().invoke(req.getTok(), wired(req.getArgs()));
      const resp = new providerpb.InvokeResponse();
      if (r.result) resp.setReturn(toStruct(toWire(r.result, [])));
      return resp.setFailuresList(r.failures.map(failure));
    }),
    check: resourceCall(async (req: providerpb.CheckRequest) =>
      checkResponse(await p().check(req.getUrn(), wired(req.getOlds()), wired(req.getNews()))),
    ),
    diff: resourceCall(async (req: providerpb.DiffRequest) =>
      diffResponse(await p().diff(req.getUrn(), req.getId(), wired(req.getOlds()), wired(req.getNews()))),
    ),
    create: resourceCall(async (req: providerpb.CreateRequest) => {
      const r = await p().create(req.getUrn(), wired(req.getProperties()), req.getPreview(), req.getTimeout());
      return new providerpb.CreateResponse().setId(r.id).setProperties(out(r.outs));
    }),
    read: resourceCall(async (req: providerpb.ReadRequest) => {
      const r = await p().read(req.getUrn(), req.getId(), wired(req.getProperties()), wired(req.getInputs()));
      const resp = new providerpb.ReadResponse().setId(r.id);
      if (r.outs) resp.setProperties(out(r.outs));
      if (r.inputs) resp.setInputs(out(r.inputs));
      return resp;
    }),
    update: resourceCall(async (req: providerpb.UpdateRequest) => {
      const r = await p().update(req.getUrn(), req.getId(), wired(req.getOlds()), wired(req.getNews()), req.getPreview(), req.getTimeout());
      return new providerpb.UpdateResponse().setProperties(out(r.outs));
    }),
    delete: resourceCall(async (req: providerpb.DeleteRequest) => {
      await p().delete(req.getUrn(), req.getId(), wired(req.getProperties()), req.getTimeout(), wired(req.getOldInputs()));
      return new emptypb.Empty();
    }),
    cancel: unary(async () => {
      await p().cancel();
      return new emptypb.Empty();
    }),
    attach: unary(async (req: plugingpb.PluginAttach) => {
      if (req.getAddress()) onEngine(req.getAddress());
      return new emptypb.Empty();
    }),
    getMapping: unary(async () => new providerpb.GetMappingResponse()),
    getMappings: unary(async () => new providerpb.GetMappingsResponse()),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    parameterize: unimplemented("Parameterize"),
  };
}

/** Serves `service` on 127.0.0.1 at a free port; resolves with the server and its port. */
export async function listen(service: ProviderService): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    // No channelz: nothing here asks for its statistics, and keeping them costs every call
    // (grpc-js routes each through its counting handler: about 3 % of a refresh's CPU).
    "grpc.enable_channelz": 0,
  });
  // List, which the plugin does not serve, gRPC answers UNIMPLEMENTED itself.
  server.addService(providergrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, bound) => (e ? reject(e) : resolve(bound))),
  );
  return { server, port };
}
