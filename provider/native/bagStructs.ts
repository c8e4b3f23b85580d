/**
 * The engine's property bags (`google.protobuf.Struct`) read from and written to the wire as
 * plain objects. google-protobuf's own Struct decodes each field into a map entry and a `Value`
 * message and copies them into a plain object on `toJavaScript()`, and `fromJavaScript()` builds
 * the same messages again to answer: in a profile of the native plugin serving a `pulumi
 * refresh` of 300 services, google-protobuf was 18 % of its CPU and the garbage collector, which
 * those short-lived messages feed, 11 % (CONTRIBUTING.md, "Where a refresh's time goes").
 *
 * {@link useBagStructs} puts this codec in google-protobuf's place for every Struct of the
 * process: a Struct read from the wire carries its plain object ({@link BagStruct}), which
 * `toJavaScript()` returns; a Struct that carries one (decoded, or made by {@link bagStruct}) is
 * written from it. The messages around the Structs (Pulumi's requests and answers) stay
 * `@pulumi/pulumi`'s generated code, which looks the Struct's codec up on each call. Values are
 * what google-protobuf's Struct gives and takes: `null`, numbers (doubles), strings, booleans,
 * objects and arrays of them; anything else is an error naming the key, as it is there.
 * `getFieldsMap()` of a Struct that carries a plain object is empty: read it with
 * `toJavaScript()`.
 */
import type { BinaryReader, BinaryWriter } from "google-protobuf";
import * as structpb from "google-protobuf/google/protobuf/struct_pb";

/** A property bag: what `toJavaScript()` gives. */
export type PlainBag = { [key: string]: PlainValue };
/** A value of a bag. */
export type PlainValue = null | number | string | boolean | PlainBag | PlainValue[];

/** A Struct that carries its plain object. */
export interface BagStruct extends structpb.Struct {
  bag?: PlainBag;
}

// google.protobuf.Struct: fields = 1 (map<string, Value>: key = 1, value = 2).
// google.protobuf.Value: null_value = 1, number_value = 2, string_value = 3, bool_value = 4,
// struct_value = 5, list_value = 6. google.protobuf.ListValue: values = 1.

/** A Value's contents, from the reader (positioned in the Value message). */
function readValue(reader: BinaryReader, key: string): PlainValue {
  let value: PlainValue | undefined;
  while (reader.nextField() && !reader.isEndGroup()) {
    switch (reader.getFieldNumber()) {
      case 1:
        reader.readEnum();
        value = null;
        break;
      case 2:
        value = reader.readDouble();
        break;
      case 3:
        value = reader.readString();
        break;
      case 4:
        value = reader.readBool();
        break;
      case 5: {
        const bag: PlainBag = {};
        reader.readMessage(bag, readFields);
        value = bag;
        break;
      }
      case 6: {
        const list: PlainValue[] = [];
        reader.readMessage(list, (l: PlainValue[], r: BinaryReader) => readList(l, r, key));
        value = list;
        break;
      }
      default:
        reader.skipField();
    }
  }
  if (value === undefined) throw new TypeError(`property ${JSON.stringify(key)}: a Value with no kind set`);
  return value;
}

/** A Value message's contents into `into.value`. */
function readBoxed(into: { key: string; value?: PlainValue }, reader: BinaryReader): void {
  into.value = readValue(reader, into.key);
}

/** A Struct's fields into `bag`. */
function readFields(bag: PlainBag, reader: BinaryReader): void {
  while (reader.nextField() && !reader.isEndGroup()) {
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    const entry: { key: string; value?: PlainValue } = { key: "" };
    reader.readMessage(entry, (e: typeof entry, r: BinaryReader) => {
      while (r.nextField() && !r.isEndGroup()) {
        if (r.getFieldNumber() === 1) e.key = r.readString();
        else if (r.getFieldNumber() === 2) r.readMessage(e, readBoxed);
        else r.skipField();
      }
    });
    // A map entry without a value is the value's default: a Value with no kind, as google-protobuf reads it.
    if (entry.value === undefined) throw new TypeError(`property ${JSON.stringify(entry.key)}: a Value with no kind set`);
    bag[entry.key] = entry.value;
  }
}

/** A ListValue's values into `list`. */
function readList(list: PlainValue[], reader: BinaryReader, key: string): void {
  while (reader.nextField() && !reader.isEndGroup()) {
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    const item: { key: string; value?: PlainValue } = { key: `${key}[${list.length}]` };
    reader.readMessage(item, readBoxed);
    list.push(item.value as PlainValue);
  }
}

/** `value` as a Value message's contents. */
function writeValue(value: unknown, writer: BinaryWriter, key: string): void {
  switch (typeof value) {
    case "string":
      writer.writeString(3, value);
      return;
    case "number":
      writer.writeDouble(2, value);
      return;
    case "boolean":
      writer.writeBool(4, value);
      return;
    case "object":
      if (value === null) writer.writeEnum(1, 0);
      else if (Array.isArray(value))
        writer.writeMessage(6, value, (list: unknown[], w: BinaryWriter) => {
          list.forEach((v, i) => w.writeMessage(1, { v }, (box: { v: unknown }, ww: BinaryWriter) => writeValue(box.v, ww, `${key}[${i}]`)));
        });
      else writer.writeMessage(5, value, writeFields);
      return;
    default:
      throw new TypeError(`property ${JSON.stringify(key)}: a ${typeof value} is no Struct value`);
  }
}

/** `bag`'s properties as a Struct's fields. (Each value goes boxed: google-protobuf's writer writes no message for a `null`.) */
function writeFields(bag: Record<string, unknown>, writer: BinaryWriter): void {
  for (const key of Object.keys(bag)) {
    writer.writeMessage(1, key, (k: string, w: BinaryWriter) => {
      w.writeString(1, k);
      w.writeMessage(2, { v: bag[k] }, (box: { v: unknown }, ww: BinaryWriter) => writeValue(box.v, ww, k));
    });
  }
}

let installed = false;

/** Puts this codec in google-protobuf's place for every Struct of the process (once; later calls do nothing). */
export function useBagStructs(): void {
  if (installed) return;
  installed = true;
  const S = structpb.Struct;
  // google-protobuf's own, kept for Structs that carry no plain object (made by fromJavaScript).
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its Struct as `this` below
  const toJavaScript = S.prototype.toJavaScript;
  const serialize = S.serializeBinaryToWriter.bind(S);
  S.deserializeBinaryFromReader = (message: BagStruct, reader: BinaryReader): BagStruct => {
    const bag: PlainBag = {};
    readFields(bag, reader);
    message.bag = bag;
    return message;
  };
  S.serializeBinaryToWriter = (message: BagStruct, writer: BinaryWriter): void => {
    if (message.bag !== undefined) writeFields(message.bag, writer);
    else serialize(message, writer);
  };
  S.prototype.toJavaScript = function (this: BagStruct) {
    return this.bag ?? toJavaScript.call(this);
  };
}

/** A Struct carrying `bag`, written from it (this codec put in place first, if it was not). */
export function bagStruct(bag: Record<string, unknown>): structpb.Struct {
  useBagStructs();
  const s: BagStruct = new structpb.Struct();
  s.bag = bag as PlainBag;
  return s;
}
