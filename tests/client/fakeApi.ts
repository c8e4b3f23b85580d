/**
 * A tiny local HTTP server standing in for the API in tests of odd edge cases (malformed
 * bodies, scripted failures), and a forwarding proxy that can rewrite answers.
 */
import * as http from "http";
import type { AddressInfo } from "net";

/** A request the fake server received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A scripted answer. `destroy` closes the socket without answering; `bytes` is sent as it is. */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  raw?: string;
  bytes?: Buffer;
  headers?: Record<string, string>;
  destroy?: boolean;
}

/** A running fake server. */
export interface FakeApi {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server that answers each request with `handler(request)`. */
export async function startFakeApi(handler: (req: SeenRequest) => FakeAnswer | Promise<FakeAnswer>): Promise<FakeApi> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(seen);
      void Promise.resolve(handler(seen)).then((a) => {
        if (a.destroy === true) {
          req.socket.destroy();
          return;
        }
        const text = a.bytes ?? a.raw ?? (a.body === undefined ? "" : JSON.stringify(a.body));
        res.writeHead(a.status ?? 200, { "content-type": "application/json", ...(a.headers ?? {}) });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/public/api/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A running proxy. */
export interface Proxy {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `targetUrl` (an origin). `rewrite(method, path, upstreamStatus)`
 * returns a replacement answer (e.g. a 503 after the create took effect), or undefined
 * to pass the upstream answer through.
 */
export async function startProxy(
  targetOrigin: string,
  rewrite: (method: string, path: string, status: number) => FakeAnswer | undefined,
): Promise<Proxy> {
  const target = new URL(targetOrigin);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const up = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (upRes) => {
          const body: Buffer[] = [];
          upRes.on("data", (c: Buffer) => body.push(c));
          upRes.on("end", () => {
            const replaced = rewrite(req.method ?? "", req.url ?? "", upRes.statusCode ?? 0);
            if (replaced !== undefined) {
              if (replaced.destroy === true) {
                req.socket.destroy();
                return;
              }
              res.writeHead(replaced.status ?? 200, { "content-type": "application/json", ...(replaced.headers ?? {}) });
              res.end(replaced.raw ?? JSON.stringify(replaced.body ?? {}));
              return;
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      up.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/public/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A valid service body for fake answers. */
export function serviceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    service_id: "svc0000001",
    project_id: "proj000001",
    name: "db",
    service_type: "TIMESERIES",
    status: "READY",
    created: new Date().toISOString(),
    region_code: "us-east-1",
    endpoint: { host: "svc0000001.proj000001.clouddb.local", port: 5432 },
    ...overrides,
  };
}
