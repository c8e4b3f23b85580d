/**
 * The engine's property bags (`google.protobuf.Struct`) read from and written to the wire as
 * plain objects. google-protobuf's own Struct decodes each field into a map entry and a `Value`
 * message and copies them into a plain object on `toJavaScript()`, and `fromJavaScript()` builds
 * the same messages again to answer: in a profile of the native plugin serving a `pulumi
 * refresh` of 300 services, google-protobuf was 18 % of its CPU and the garbage collector, which
 * those short-lived messages feed, 11 % (docs/performance/large-stacks.md, "Where a refresh's time goes").
 *
 * {@link useBagStructs} puts this codec in google-protobuf's place for every Struct of the
 * process: a Struct read from the wire carries its plain object ({@link BagStruct}), which
 * `toJavaScript()` returns; a Struct that carries one (decoded, or made by {@link bagStruct}) is
 * written from it. A Struct is read from its bytes (strings by Buffer's UTF-8 decoder), google-protobuf's
 * reader only finding each of its entries; it is written with google-protobuf's writer. The
 * messages around the Structs (Pulumi's requests and answers) stay
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

/** The length-delimited wire type (google-protobuf's typings name `BinaryConstants`, which its module does not export). */
const DELIMITED = 2;
/**
 * The tags read: a field's number times 8 plus its wire type (0 varint, 1 64-bit, 2
 * length-delimited, 5 32-bit), of google.protobuf.Struct (fields = 1: map<string, Value>, an
 * entry's key = 1 and value = 2), Value (null_value = 1, number_value = 2, string_value = 3,
 * bool_value = 4, struct_value = 5, list_value = 6) and ListValue (values = 1).
 */
const TAG = {
  structEntry: 0x0a,
  entryKey: 0x0a,
  entryValue: 0x12,
  listItem: 0x0a,
  null: 0x08,
  number: 0x11,
  string: 0x1a,
  bool: 0x20,
  struct: 0x2a,
  list: 0x32,
};

/** A position in a message's bytes, read up to `end`. */
interface Cursor {
  readonly buf: Buffer;
  pos: number;
}

/** A varint (tags, lengths, enums, booleans: none is above 2^53 here). */
function varint(c: Cursor): number {
  let value = 0;
  let scale = 1;
  let byte: number;
  do {
    byte = c.buf[c.pos++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return value;
}

/** Past a field of wire type `wireType` that is not read. */
function skip(c: Cursor, wireType: number): void {
  if (wireType === 0) varint(c);
  else if (wireType === 1) c.pos += 8;
  else if (wireType === 2) c.pos += varint(c);
  else if (wireType === 5) c.pos += 4;
  else throw new TypeError(`a Struct holds a field of wire type ${wireType}, which no Struct has`);
}

/** A length-delimited field's end (the cursor at its first byte). */
function delimitedEnd(c: Cursor): number {
  const length = varint(c);
  return c.pos + length;
}

/** A string of `end - c.pos` bytes. */
function utf8(c: Cursor, end: number): string {
  const s = c.buf.toString("utf8", c.pos, end);
  c.pos = end;
  return s;
}

/** A Value message's contents up to `end`. */
function readValue(c: Cursor, end: number, key: string): PlainValue {
  let value: PlainValue | undefined;
  while (c.pos < end) {
    const tag = varint(c);
    if (tag === TAG.null) {
      varint(c);
      value = null;
    } else if (tag === TAG.number) {
      value = c.buf.readDoubleLE(c.pos);
      c.pos += 8;
    } else if (tag === TAG.string) value = utf8(c, delimitedEnd(c));
    else if (tag === TAG.bool) value = varint(c) !== 0;
    else if (tag === TAG.struct) value = readFields(c, delimitedEnd(c));
    else if (tag === TAG.list) value = readList(c, delimitedEnd(c), key);
    else skip(c, tag & 7);
  }
  if (value === undefined) throw new TypeError(`property ${JSON.stringify(key)}: a Value with no kind set`);
  return value;
}

/** A map entry's key and value up to `end`, into `bag`. */
function readEntry(c: Cursor, end: number, bag: PlainBag): void {
  let key = "";
  let valueAt: [number, number] | undefined;
  while (c.pos < end) {
    const tag = varint(c);
    if (tag === TAG.entryKey) key = utf8(c, delimitedEnd(c));
    else if (tag === TAG.entryValue) {
      const valueEnd = delimitedEnd(c);
      valueAt = [c.pos, valueEnd];
      c.pos = valueEnd;
    } else skip(c, tag & 7);
  }
  // A map entry without a value is the value's default: a Value with no kind, as google-protobuf reads it.
  if (valueAt === undefined) throw new TypeError(`property ${JSON.stringify(key)}: a Value with no kind set`);
  // The value is read once the key is known (the key comes first as every encoder writes it, but need not).
  const after = c.pos;
  c.pos = valueAt[0];
  bag[key] = readValue(c, valueAt[1], key);
  c.pos = after;
}

/** A Struct's fields up to `end`. */
function readFields(c: Cursor, end: number): PlainBag {
  const bag: PlainBag = {};
  while (c.pos < end) {
    const tag = varint(c);
    if (tag === TAG.structEntry) {
      const entryEnd = delimitedEnd(c);
      readEntry(c, entryEnd, bag);
      c.pos = entryEnd;
    } else skip(c, tag & 7);
  }
  return bag;
}

/** A ListValue's values up to `end`. */
function readList(c: Cursor, end: number, key: string): PlainValue[] {
  const list: PlainValue[] = [];
  while (c.pos < end) {
    const tag = varint(c);
    if (tag === TAG.listItem) {
      const itemEnd = delimitedEnd(c);
      list.push(readValue(c, itemEnd, `${key}[${list.length}]`));
      c.pos = itemEnd;
    } else skip(c, tag & 7);
  }
  return list;
}

/** The bytes google-protobuf read a message from, as a Buffer (a view, not a copy), one per array. */
const asBuffer = new WeakMap<Uint8Array, Buffer>();
function bufferOf(bytes: Uint8Array): Buffer {
  if (Buffer.isBuffer(bytes)) return bytes;
  let b = asBuffer.get(bytes);
  if (b === undefined) {
    b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    asBuffer.set(bytes, b);
  }
  return b;
}

/**
 * A Struct's fields from google-protobuf's reader (positioned in the Struct): its own loop finds
 * each map entry and where it ends (`getFieldDecoder`), the entry is read from the bytes.
 */
function readStruct(reader: BinaryReader): PlainBag {
  const bag: PlainBag = {};
  while (reader.nextField() && !reader.isEndGroup()) {
    if (reader.getFieldNumber() !== 1 || (reader.getWireType() as number) !== DELIMITED) {
      reader.skipField();
      continue;
    }
    const entry = reader.getFieldDecoder();
    const c: Cursor = { buf: bufferOf(entry.getBuffer()), pos: entry.getCursor() };
    readEntry(c, entry.getEnd(), bag);
    entry.free();
  }
  return bag;
}

/**
 * A value to write and the key errors name. google-protobuf's writer takes a message's contents
 * with a callback, and writes no message for a `null`: each value goes in one of these.
 */
interface Boxed {
  readonly key: string;
  readonly value: unknown;
}

/** A map entry's contents: its key, then its value. */
function writeEntry(entry: Boxed, writer: BinaryWriter): void {
  writer.writeString(1, entry.key);
  writer.writeMessage(2, entry, writeBoxed);
}

/** A Value message's contents from a box. */
function writeBoxed(box: Boxed, writer: BinaryWriter): void {
  writeValue(box.value, writer, box.key);
}

/** A ListValue's contents: each item a Value. */
function writeList(box: { readonly key: string; readonly value: unknown[] }, writer: BinaryWriter): void {
  box.value.forEach((value, i) => writer.writeMessage(1, { key: `${box.key}[${i}]`, value }, writeBoxed));
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
      else if (Array.isArray(value)) writer.writeMessage(6, { key, value }, writeList);
      else writer.writeMessage(5, value, writeFields);
      return;
    default:
      throw new TypeError(`property ${JSON.stringify(key)}: a ${typeof value} is no Struct value`);
  }
}

/** `bag`'s properties as a Struct's fields: an entry each. */
function writeFields(bag: Record<string, unknown>, writer: BinaryWriter): void {
  for (const key of Object.keys(bag)) writer.writeMessage(1, { key, value: bag[key] }, writeEntry);
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
    message.bag = readStruct(reader);
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
