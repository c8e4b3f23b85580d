/**
 * Connection strings (CONTRACT.md, "Connecting to a service"): every service has the
 * database `tsdb` and the admin role `tsdbadmin`, whose password is the service's; a read
 * replica set takes its service's role and password at its own endpoint; connections need TLS.
 */

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
