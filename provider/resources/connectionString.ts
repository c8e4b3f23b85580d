/**
 * Connection strings (CONTRACT.md, "Connecting to a service"): every service has the
 * database `tsdb` and the admin role `tsdbadmin`, whose password is the service's; a read
 * replica set takes its service's role and password at its own endpoint; connections need TLS.
 * And the outputs that carry them, which services and replica sets share.
 */
import { z } from "zod";
import type { ConnectionPooler, Endpoint } from "../client";
import { outputsReadFrom } from "../framework/schema";
import { isNumber, isText, oddly } from "../framework/unreadable";

/** The admin role of every service. */
export const ADMIN_ROLE = "tsdbadmin";
/** The database of every service. */
export const DATABASE = "tsdb";

/**
 * `postgresql://tsdbadmin:<password>@<host>:<port>/tsdb?sslmode=require`, role and password
 * percent-encoded; without the password part when it is not known. Undefined without a host.
 */
export function connectionString(endpoint: { host?: string; port?: number } | undefined, password: string | undefined): string | undefined {
  if (!endpoint?.host || !endpoint.port) return undefined;
  const user = encodeURIComponent(ADMIN_ROLE) + (password === undefined ? "" : `:${encodeURIComponent(password)}`);
  return `postgresql://${user}@${endpoint.host}:${endpoint.port}/${DATABASE}?sslmode=require`;
}

/** What the connection outputs read from: a live service or replica set, and its password when known. */
export interface ConnectionSource {
  readonly live: { readonly endpoint?: Endpoint; readonly connection_pooler?: ConnectionPooler | null };
  readonly password?: string;
}

/** A live resource with connection fields (a service, a replica set), as the answer shows them. */
type Connected = ConnectionSource["live"];

/** True when `endpoint` shows its host (not blank) and port readably. */
const readableEndpoint = (endpoint: Endpoint | undefined): boolean =>
  isText(endpoint?.host) && endpoint.host.trim() !== "" && isNumber(endpoint.port);

/** The endpoint, which a resource past its creation always shows. */
const endpointShown = (l: Connected): boolean => readableEndpoint(l.endpoint);

/** The pooler: absent or `null` while it is off (a value), any other shape unreadable. */
const poolerShown = (l: Connected): boolean => !oddly(l, "connection_pooler");

/** The pooler's endpoint: unreadable while the pooler is on and does not show one. */
const poolerEndpointShown = (l: Connected): boolean =>
  poolerShown(l) && (l.connection_pooler == null || readableEndpoint(l.connection_pooler.endpoint));

/**
 * The connection outputs of a service or a replica set: host, port, the pooler's, the
 * password and the connection strings, each read from the live resource (the wire names are
 * checked against the fields every connected kind has: a kind's type only adds to them).
 */
export function connectionOutputs(docs: {
  readonly password: string;
  readonly connectionString: string;
  readonly poolerConnectionString: string;
}) {
  const output = outputsReadFrom<ConnectionSource>();
  const pooler = (s: ConnectionSource) => s.live.connection_pooler?.endpoint;
  const endpoint = { field: "endpoint", shows: endpointShown } as const;
  const poolerEndpoint = { field: "connection_pooler.endpoint", shows: poolerEndpointShown } as const;
  return {
    host: output(z.string(), { doc: "Connection host.", ...endpoint, from: (s) => s.live.endpoint?.host ?? "" }),
    port: output(z.number().int(), { doc: "Connection port.", ...endpoint, from: (s) => s.live.endpoint?.port ?? 0 }),
    poolerHost: output(z.string().optional(), {
      doc: "Pooler host, while the pooler is on.",
      ...poolerEndpoint,
      from: (s) => pooler(s)?.host,
    }),
    poolerPort: output(z.number().int().optional(), {
      doc: "Pooler port, while the pooler is on.",
      ...poolerEndpoint,
      from: (s) => pooler(s)?.port,
    }),
    connectionPooler: output(z.boolean(), {
      doc: "Whether the pooler is on.",
      field: "connection_pooler",
      shows: poolerShown,
      from: (s) => s.live.connection_pooler !== undefined && s.live.connection_pooler !== null,
    }),
    password: output(z.string().optional(), { doc: docs.password, secret: true, from: (s) => s.password }),
    connectionString: output(z.string().optional(), {
      doc: docs.connectionString,
      secret: true,
      ...endpoint,
      from: (s) => connectionString(s.live.endpoint, s.password),
    }),
    poolerConnectionString: output(z.string().optional(), {
      doc: docs.poolerConnectionString,
      secret: true,
      ...poolerEndpoint,
      from: (s) => connectionString(pooler(s), s.password),
    }),
  };
}
