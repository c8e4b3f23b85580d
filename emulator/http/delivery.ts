/**
 * How an answer reaches the client: whole, or, when a fault rule says so, not at all
 * (the connection destroyed) or cut short (the head promises more body than is sent,
 * then the connection closes).
 */
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { SerializedAnswer } from "./answer";

/** Destroys the connection without a byte of answer. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/** The head of an answer as HTTP/1.1 bytes. */
function headBytes(serialized: SerializedAnswer): Buffer {
  const lines = [`HTTP/1.1 ${serialized.status} ${STATUS_CODES[serialized.status] ?? "Unknown"}`];
  for (const [name, value] of Object.entries(serialized.headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

/**
 * Sends an answer cut short, then closes the connection. An answer with a body keeps
 * its whole head (the real `Content-Length`) and loses its body from `atBytes` on
 * (default: half of it; never the whole body). An answer without a body has nothing to
 * cut but its head, so half the head is sent. Either way the client sees a premature
 * end of the answer.
 * @returns the body bytes sent.
 */
export function writeTruncated(res: ServerResponse, serialized: SerializedAnswer, atBytes?: number): number {
  const socket = res.socket;
  if (!socket) return 0;
  const head = headBytes(serialized);
  const body = serialized.payload;
  if (!body || body.length === 0) {
    socket.end(head.subarray(0, Math.floor(head.length / 2)));
    return 0;
  }
  const cut = Math.min(atBytes ?? Math.floor(body.length / 2), body.length - 1);
  socket.end(Buffer.concat([head, body.subarray(0, cut)]));
  return cut;
}
