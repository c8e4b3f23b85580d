/**
 * An answer's body as the server encoded it (`Content-Encoding`): the client asks for no
 * compression, yet a gateway may compress an answer unasked. A body in an encoding Node
 * decodes (gzip, deflate, brotli, zstd where Node has it) is decoded; one it cannot decode,
 * or whose data is damaged, is named for what it is, never read as text. A UTF-8 byte order
 * mark before the text is dropped: RFC 8259 (section 8.1) forbids sending one but lets a
 * reader ignore it, and some servers and gateways send it anyway. This is the one place
 * where answers become text, so every answer (an error's too) is read the same way.
 */
import * as zlib from "zlib";

/** The most a decoded body may hold: far more than any answer of the API, far less than a bomb. */
const MAX_DECODED_BYTES = 256 * 1024 * 1024;

/** A body decoded to text, or why it could not be. */
export type DecodedBody =
  | { readonly text: string }
  /** `encoding` is the `Content-Encoding` as sent; `why` says what stopped the decoding. */
  | { readonly encoding: string; readonly why: string };

type Decoder = (data: Buffer) => Buffer;

const limits = { maxOutputLength: MAX_DECODED_BYTES };

/** The decoder of one content coding, by its name in lower case. */
function decoderOf(coding: string): Decoder | undefined {
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return (d) => zlib.gunzipSync(d, limits);
    case "deflate":
      // The standard's zlib wrapper, or the raw deflate some servers send under the same name.
      return (d) => {
        try {
          return zlib.inflateSync(d, limits);
        } catch {
          return zlib.inflateRawSync(d, limits);
        }
      };
    case "br":
      return (d) => zlib.brotliDecompressSync(d, limits);
    case "zstd": {
      const zstd = (zlib as unknown as { zstdDecompressSync?: (d: Buffer, o: object) => Buffer }).zstdDecompressSync;
      return zstd === undefined ? undefined : (d) => zstd(d, limits);
    }
    default:
      return undefined;
  }
}

/** The byte order mark, as the first character of text read as UTF-8. */
const BYTE_ORDER_MARK = "\ufeff";

/**
 * `bytes` decoded as `contentEncoding` says (codings applied in the order listed are undone
 * in reverse), then read as UTF-8, without a leading byte order mark. Never throws.
 */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined): DecodedBody {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  let data = bytes;
  for (const coding of codings.reverse()) {
    const decode = decoderOf(coding);
    const encoding = contentEncoding!.trim();
    if (decode === undefined) return { encoding, why: `\`${coding}\` is an encoding this client cannot decode` };
    try {
      data = decode(data);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { encoding, why: `its \`${coding}\` data could not be decoded${code === undefined ? "" : ` (${code})`}` };
    }
  }
  const text = data.toString("utf8");
  return { text: text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text };
}
