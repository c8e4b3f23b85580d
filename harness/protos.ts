/**
 * The gRPC and protobuf modules, loaded as the copies `@pulumi/pulumi` itself resolves, so that
 * messages we build are the same classes the SDK's runtime and the plugin use.
 */
import * as path from "path";

/** Directory of the installed `@pulumi/pulumi` package. */
export const pulumiDir: string = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

function requireFromPulumi<T>(id: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve(id, { paths: [pulumiDir] })) as T;
}

/** `@grpc/grpc-js` as the SDK resolves it. */
export const grpc = requireFromPulumi<typeof import("@grpc/grpc-js")>("@grpc/grpc-js");
/** `google.protobuf.Struct` and friends as the SDK resolves them. */
export const structpb = requireFromPulumi<typeof import("google-protobuf/google/protobuf/struct_pb")>(
  "google-protobuf/google/protobuf/struct_pb",
);
/** `google.protobuf.Empty`. */
export const emptypb = requireFromPulumi<typeof import("google-protobuf/google/protobuf/empty_pb")>(
  "google-protobuf/google/protobuf/empty_pb",
);
/** pulumirpc provider messages. */
export const provpb = requireFromPulumi<typeof import("@pulumi/pulumi/proto/provider_pb")>("@pulumi/pulumi/proto/provider_pb");
/** pulumirpc provider service client. */
export const provgrpc = requireFromPulumi<typeof import("@pulumi/pulumi/proto/provider_grpc_pb")>("@pulumi/pulumi/proto/provider_grpc_pb");
/** pulumirpc resource monitor messages. */
export const respb = requireFromPulumi<typeof import("@pulumi/pulumi/proto/resource_pb")>("@pulumi/pulumi/proto/resource_pb");
/** google.rpc.Status (as vendored by the SDK). */
export const statuspb = requireFromPulumi<typeof import("@pulumi/pulumi/proto/status_pb")>("@pulumi/pulumi/proto/status_pb");

/** A plain JSON-like object. */
export type JsonObject = Record<string, unknown>;

/** Builds a Struct from a plain object. */
export function toStruct(obj: JsonObject): InstanceType<typeof structpb.Struct> {
  // Struct.fromJavaScript's typing wants JavaScriptValue; our objects are JSON-shaped.
  return structpb.Struct.fromJavaScript(obj as Parameters<typeof structpb.Struct.fromJavaScript>[0]);
}

/** Reads a Struct (possibly absent) as a plain object. */
export function fromStruct(s: { toJavaScript(): unknown } | undefined | null): JsonObject {
  return s ? (s.toJavaScript() as JsonObject) : {};
}
