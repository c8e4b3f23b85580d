/** An HTTP answer as a value, and how errors become answers. */
import type { ServerResponse } from "node:http";
import { EmulatorApiError } from "../model/errors";

/** Status, JSON body (absent for 204 and bodiless 202) and extra headers. */
export interface Answer {
  /** HTTP status code. */
  status: number;
  /** JSON-serialisable body; omitted when undefined. */
  body?: unknown;
  /** A body that is not JSON (a gateway's HTML page), sent as it is with the `Content-Type` of {@link Answer.headers}. */
  text?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A 2xx answer with a JSON body. */
export function json(status: number, body: unknown): Answer {
  return { status, body };
}

/** A 2xx answer without a body. */
export function empty(status: number): Answer {
  return { status };
}

/**
 * The contract's error answer for any thrown value: {@link EmulatorApiError}s keep their
 * status, code and headers; anything else is a 500 `INTERNAL`.
 */
export function errorAnswer(error: unknown): Answer {
  if (EmulatorApiError.isInstance(error)) {
    return { status: error.status, body: error.toBody(), headers: { ...error.headers } };
  }
  console.error("clouddb-emulator: unexpected error", error);
  return { status: 500, body: { code: "INTERNAL", message: "Internal emulator error", details: String(error) } };
}

/** An answer as it goes on the wire: status, headers (`Date` included) and body bytes. */
export interface SerializedAnswer {
  /** HTTP status code. */
  status: number;
  /** Every header the emulator sets. */
  headers: Record<string, string>;
  /** The JSON body's bytes; undefined when the answer has none. */
  payload: Buffer | undefined;
}

/**
 * Serializes an answer, with an HTTP `Date` header showing `dateMs`: the server's clock,
 * which may differ from the wall clock (CONTRACT "Transport").
 */
export function serializeAnswer(answer: Answer, dateMs: number): SerializedAnswer {
  const headers: Record<string, string> = { Date: new Date(dateMs).toUTCString(), ...answer.headers };
  let payload: Buffer | undefined;
  if (answer.text !== undefined) {
    payload = Buffer.from(answer.text);
    headers["Content-Length"] = String(payload.length);
  } else if (answer.body !== undefined) {
    payload = Buffer.from(JSON.stringify(answer.body));
    headers["Content-Type"] = "application/json";
    headers["Content-Length"] = String(payload.length);
  } else if (answer.status !== 204) {
    headers["Content-Length"] = "0";
  }
  return { status: answer.status, headers, payload };
}

/** Writes a whole answer. */
export function writeAnswer(res: ServerResponse, serialized: SerializedAnswer): void {
  res.writeHead(serialized.status, serialized.headers);
  res.end(serialized.payload);
}
