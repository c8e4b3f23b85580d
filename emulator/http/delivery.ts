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

/**
 * Sends an answer whose body trickles in, one byte every `byteMs` milliseconds after the
 * whole head (with the real `Content-Length`), as a slow or stalled gateway would. Stops
 * when the connection goes. @returns a promise that settles when the last byte was sent
 * or the connection closed.
 */
export function writeTrickled(res: ServerResponse, serialized: SerializedAnswer, byteMs: number): Promise<void> {
  const socket = res.socket;
  if (!socket) return Promise.resolve();
  socket.write(headBytes(serialized));
  const body = serialized.payload ?? Buffer.alloc(0);
  return new Promise((resolve) => {
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || sent >= body.length) {
        clearInterval(timer);
        if (!socket.destroyed) socket.end();
        resolve();
        return;
      }
      socket.write(body.subarray(sent, sent + 1));
      sent += 1;
    }, byteMs);
    socket.once("close", () => {
      clearInterval(timer);
      resolve();
    });
  });
}
