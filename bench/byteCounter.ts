/**
 * A proxy between a plugin and the emulator that counts the bytes of every answer's body:
 * what a create's waiting downloads. Plain Node `http`, one upstream request per request.
 */
import * as http from "http";
import type { AddressInfo } from "net";

/** A running byte counter. */
export interface ByteCounter {
  /** The proxy's base URL (`http://127.0.0.1:<port>`), standing for the upstream's. */
  readonly url: string;
  /** Answer body bytes since the last {@link ByteCounter.reset}. */
  readonly bytes: number;
  /** Starts counting again from 0. */
  reset(): void;
  /** Stops the proxy. */
  close(): Promise<void>;
}

/** Starts a proxy to `upstream` (`http://host:port`) on a free port. */
export async function startByteCounter(upstream: string): Promise<ByteCounter> {
  const target = new URL(upstream);
  let bytes = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on("data", (chunk: Buffer) => (bytes += chunk.length));
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get bytes() {
      return bytes;
    },
    reset: () => {
      bytes = 0;
    },
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
