/** Reading a request body with a size limit, and parsing it as JSON. */
import type { IncomingMessage } from "node:http";
import { InvalidRequestError } from "../model/errors";

/** Largest body accepted: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many bytes an oversized body is no longer drained: the connection is dropped. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/** A body as received. */
export interface ReceivedBody {
  /** The bytes, empty when over the limit. */
  bytes: Buffer;
  /** True when the body was larger than the limit. */
  tooLarge: boolean;
}

/** Reads the whole body; past `limit` bytes it keeps draining but stores nothing. */
export function receiveBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<ReceivedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > MAX_DRAIN_BYTES) req.destroy();
    });
    req.on("end", () =>
      resolve(size > limit ? { bytes: Buffer.alloc(0), tooLarge: true } : { bytes: Buffer.concat(chunks), tooLarge: false }),
    );
    req.on("error", reject);
  });
}

/**
 * The body as JSON: `{}` when empty (so required fields are reported as missing).
 * @throws InvalidRequestError when the content type is not `application/json` or the JSON is malformed.
 */
export function parseJsonBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return {};
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new InvalidRequestError(
      "Unsupported content type",
      `Content-Type must be application/json, received ${contentType === undefined ? "none" : JSON.stringify(contentType)}`,
    );
  }
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch (error) {
    throw new InvalidRequestError("The request body is not valid JSON", (error as Error).message);
  }
}
