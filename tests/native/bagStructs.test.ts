/**
 * The plugin's Struct codec (provider/native/bagStructs.ts) against google-protobuf's own, on the
 * bytes each writes: what one writes, the other reads back the same, through Pulumi's request
 * and answer messages as the engine and the plugin exchange them.
 */
import { BinaryReader, BinaryWriter } from "google-protobuf";
import * as structpb from "google-protobuf/google/protobuf/struct_pb";
import * as providerpb from "@pulumi/pulumi/proto/provider_pb";
import { bagStruct, useBagStructs } from "../../provider/native/bagStructs";
import { SECRET_SIG, SIG_KEY } from "../../harness/secrets";

/** google-protobuf's own codec, taken before this file puts the plugin's in its place. */
const original = {
  read: structpb.Struct.deserializeBinaryFromReader,
  write: structpb.Struct.serializeBinaryToWriter,
  toJavaScript: structpb.Struct.prototype.toJavaScript,
};

/** `bag` as google-protobuf writes it. */
function writtenByGoogle(bag: Record<string, unknown>): Uint8Array {
  const w = new BinaryWriter();
  original.write(structpb.Struct.fromJavaScript(bag as Record<string, structpb.JavaScriptValue>), w);
  return w.getResultBuffer();
}

/** `bytes` as google-protobuf reads them. */
function readByGoogle(bytes: Uint8Array): unknown {
  const s = new structpb.Struct();
  original.read(s, new BinaryReader(bytes));
  return original.toJavaScript.call(s);
}

const BAGS: Record<string, Record<string, unknown>> = {
  empty: {},
  "a Service's outputs": {
    id: "abcdefghij",
    status: "READY",
    port: 5432,
    resources: { cpu: 2, memoryGb: 8, storageGb: 100 },
    haReplicas: { count: 0, sync: false },
    password: { [SIG_KEY]: SECRET_SIG, value: "p4ss" },
    vpcId: null,
    tags: ["a", "", "ü 数据库"],
  },
  "every kind, nested": {
    zero: 0,
    negative: -1.5,
    big: 2 ** 53 + 2,
    tiny: 5e-324,
    f: false,
    t: true,
    s: "",
    n: null,
    emptyObject: {},
    emptyList: [],
    lists: [[1, [null, {}]], { deep: [{ deeper: ["x"] }] }],
    "key with spaces and ünïcode": "v",
  },
  "long and many (lengths of several bytes)": {
    long: "é".repeat(70_000),
    many: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i % 2 === 0 ? i : [`v${i}`]])),
  },
};

describe("the plugin's Struct codec", () => {
  beforeAll(() => useBagStructs());

  it.each(Object.entries(BAGS))("reads what google-protobuf writes: %s", (_name, bag) => {
    const s = structpb.Struct.deserializeBinary(writtenByGoogle(bag));
    expect(s.toJavaScript()).toStrictEqual(bag);
  });

  it.each(Object.entries(BAGS))("writes what google-protobuf reads: %s", (_name, bag) => {
    expect(readByGoogle(bagStruct(bag).serializeBinary())).toStrictEqual(bag);
  });

  it("keeps a Struct made by fromJavaScript written as google-protobuf writes it", () => {
    const bag = BAGS["every kind, nested"];
    expect(readByGoogle(structpb.Struct.fromJavaScript(bag as Record<string, structpb.JavaScriptValue>).serializeBinary())).toStrictEqual(
      bag,
    );
  });

  it("serves Pulumi's messages: a ReadRequest the engine sends, a ReadResponse the plugin answers", () => {
    const props = BAGS["a Service's outputs"];
    const inputs = { name: "svc", resources: { cpu: 2 } };
    const req = new providerpb.ReadRequest().setId("abcdefghij").setUrn("urn:pulumi:s::p::clouddb:index:Service::db");
    // As the engine writes them: google-protobuf's own Structs.
    req.setProperties(structpb.Struct.fromJavaScript(props as Record<string, structpb.JavaScriptValue>));
    req.setInputs(structpb.Struct.fromJavaScript(inputs));
    const read = providerpb.ReadRequest.deserializeBinary(req.serializeBinary());
    expect([read.getId(), read.getUrn()]).toEqual(["abcdefghij", "urn:pulumi:s::p::clouddb:index:Service::db"]);
    expect(read.getProperties()?.toJavaScript()).toStrictEqual(props);
    expect(read.getInputs()?.toJavaScript()).toStrictEqual(inputs);

    const answer = new providerpb.ReadResponse().setId("abcdefghij").setProperties(bagStruct(props)).setInputs(bagStruct(inputs));
    const bytes = answer.serializeBinary();
    // Read back field by field with google-protobuf's own Struct reader.
    const reader = new BinaryReader(bytes);
    const got: Record<number, unknown> = {};
    while (reader.nextField() && !reader.isEndGroup()) {
      const field = reader.getFieldNumber();
      if (field === 1) got[1] = reader.readString();
      else {
        const s = new structpb.Struct();
        reader.readMessage(s, original.read);
        got[field] = original.toJavaScript.call(s);
      }
    }
    expect(got).toStrictEqual({ 1: "abcdefghij", 2: props, 3: inputs });
  });

  it("reads an entry whose value comes before its key, and skips fields no Struct has", () => {
    const w = new BinaryWriter();
    w.writeMessage(1, {}, (_: object, ww: BinaryWriter) => {
      ww.writeMessage(2, {}, (__: object, v: BinaryWriter) => v.writeString(3, "value"));
      ww.writeInt32(7, 42);
      ww.writeString(1, "k");
    });
    w.writeString(9, "not a Struct's");
    w.writeMessage(1, {}, (_: object, ww: BinaryWriter) => {
      ww.writeString(1, "n");
      ww.writeMessage(2, {}, (__: object, v: BinaryWriter) => {
        v.writeFixed32(8, 1);
        v.writeDouble(2, -0.25);
      });
    });
    expect(structpb.Struct.deserializeBinary(w.getResultBuffer()).toJavaScript()).toStrictEqual({ k: "value", n: -0.25 });
  });

  it("names the property whose value no Struct holds", () => {
    expect(() => bagStruct({ fine: 1, bad: undefined }).serializeBinary()).toThrow('property "bad": a undefined is no Struct value');
    expect(() => bagStruct({ list: [1, () => 2] }).serializeBinary()).toThrow('property "list[1]": a function is no Struct value');
  });

  it("names the property whose Value has no kind set", () => {
    // One field, "k", whose Value message is empty.
    const w = new BinaryWriter();
    w.writeMessage(1, {}, (_: object, ww: BinaryWriter) => {
      ww.writeString(1, "k");
      ww.writeMessage(2, {}, () => undefined);
    });
    expect(() => structpb.Struct.deserializeBinary(w.getResultBuffer())).toThrow('property "k": a Value with no kind set');
  });
});
