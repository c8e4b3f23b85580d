/**
 * What the plugin speaks: the gRPC runtime, google-protobuf's well-known types, and the
 * stubs of Pulumi's protocol that `@pulumi/pulumi` ships (`proto/provider_grpc_pb`,
 * `engine_grpc_pb`), each required by its name so that the single-file build
 * (scripts/plugin/build.js) bundles them. `@grpc/grpc-js` and `google-protobuf` are
 * `@pulumi/pulumi`'s own dependencies, installed beside it. Loading this module puts the
 * plugin's codec of property bags (bagStructs.ts) in the place of google-protobuf's Struct.
 */
import * as grpc from "@grpc/grpc-js";
import * as anypb from "google-protobuf/google/protobuf/any_pb";
import * as emptypb from "google-protobuf/google/protobuf/empty_pb";
import * as structpb from "google-protobuf/google/protobuf/struct_pb";
import * as enginegrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as enginepb from "@pulumi/pulumi/proto/engine_pb";
import * as plugingpb from "@pulumi/pulumi/proto/plugin_pb";
import * as providergrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerpb from "@pulumi/pulumi/proto/provider_pb";
import * as statuspb from "@pulumi/pulumi/proto/status_pb";
import { bagStruct, useBagStructs } from "./bagStructs";

// Every Struct the plugin reads or writes goes through bagStructs.ts: plain objects, no Value messages.
useBagStructs();

/** The modules above, for the plugin's other files: gRPC, the well-known types, Pulumi's messages and services. */
export { anypb, emptypb, enginegrpc, enginepb, grpc, plugingpb, providergrpc, providerpb, statuspb, structpb };

/** A property bag as the engine sends it: the JSON of a `google.protobuf.Struct`. */
export type Bag = Record<string, unknown>;

/** A Struct from a bag (every value JSON: `undefined` dropped before), written from the bag itself (bagStructs.ts). */
export function toStruct(bag: Bag): structpb.Struct {
  return bagStruct(bag);
}

/** A bag from a Struct, possibly absent. */
export function fromStruct(s: structpb.Struct | undefined): Bag {
  return s ? s.toJavaScript() : {};
}
