/**
 * One HTTP/1.1 request over a plain TCP socket, reading every byte until the server
 * closes: for answers a normal client would refuse (cut short, or none at all).
 */
import net from "node:net";

/** What came back over the socket. */
export interface RawExchange {
  /** Every byte received before the server closed the connection. */
  bytes: Buffer;
  /** The head (status line and headers) when it arrived whole. */
  head?: string;
  /** Status from the status line, when it arrived whole. */
  status?: number;
  /** Headers by lower-case name, when the head arrived whole. */
  headers: Record<string, string>;
  /** Body bytes received after the head. */
  body: Buffer;
}

/** Sends `method path` with a bearer token (and JSON body) to `url` and reads until close. */
export function rawRequest(url: string, method: string, path: string, token: string, body?: unknown): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const payload = body === undefined ? "" : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Authorization: Bearer ${token}`,
    "Connection: close",
    ...(payload ? ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(payload)}`] : []),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${payload}`));
    socket.setTimeout(10_000, () => socket.destroy(new Error("raw request timed out")));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? undefined : reject(error)));
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      if (end < 0) return resolve({ bytes, headers: {}, body: Buffer.alloc(0) });
      const text = bytes.subarray(0, end).toString("latin1");
      const [statusLine, ...lines] = text.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ bytes, head: text, status: Number(statusLine.split(" ")[1]), headers, body: bytes.subarray(end + 4) });
    });
  });
}
