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
  /** The same bytes by kind of request ({@link kindOf}): where they go. */
  readonly byKind: Readonly<Record<string, number>>;
  /** Starts counting again from 0. */
  reset(): void;
  /** Stops the proxy. */
  close(): Promise<void>;
}

/**
 * The kind of a request, for {@link ByteCounter.byKind}: `429` (any refused one), `write`
 * (anything but a GET), `list <what>` (a GET of a collection: `services`, `replicaSets`,
 * `peerings`, `vpcs`) or `read <what>` (a GET of one resource).
 */
export function kindOf(method: string, url: string, status: number): string {
  if (status === 429) return "429";
  if (method !== "GET") return "write";
  const parts = url
    .split("?")[0]
    .split("/")
    .filter((p) => p !== "");
  const last = parts[parts.length - 1] ?? "";
  return /^(services|replicaSets|peerings|vpcs)$/.test(last) ? `list ${last}` : `read ${parts[parts.length - 2] ?? ""}`;
}

/** Starts a proxy to `upstream` (`http://host:port`) on a free port. */
export async function startByteCounter(upstream: string): Promise<ByteCounter> {
  const target = new URL(upstream);
  let bytes = 0;
  let byKind: Record<string, number> = {};
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const kind = kindOf(req.method ?? "GET", req.url ?? "", answer.statusCode ?? 502);
        answer.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          byKind[kind] = (byKind[kind] ?? 0) + chunk.length;
        });
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
    get byKind() {
      return byKind;
    },
    reset: () => {
      bytes = 0;
      byKind = {};
    },
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
