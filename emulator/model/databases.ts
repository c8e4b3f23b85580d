/**
 * Real databases behind services (the emulator's `--postgres`), as the domain model sees
 * them: a hosting that gives a new service its endpoint and says what its database is
 * doing, the state each service wants its database in, and how a status waits for the
 * database (`READY` only once it accepts connections, `PAUSED` once it is stopped, gone
 * once it is removed).
 */
import { SERVICE_STATUS } from "../../contract";
import type { EndpointBody } from "./views";
import { GONE, statusAt, type Phase } from "./phase";
import type { ServiceRecord, ServiceStatus } from "./records";

/** What a service's database is doing. `busy`: initialising, starting, stopping or failed. */
export type DatabaseState = "running" | "stopped" | "absent" | "busy";

/** Where the databases of services live. */
export interface DatabaseHosting {
  /** The endpoint of a new service's database, chosen at once. */
  allocate(serviceId: string): EndpointBody;
  /** What the database of a service is doing now. */
  stateOf(serviceId: string): DatabaseState;
}

/** The state a service wants its database in, from its (ungated) status. */
export type DatabaseWant = "running" | "stopped" | "absent";

/** What one service asks of its database. */
export interface DatabaseWish {
  /** The service. */
  serviceId: string;
  /** Its database's endpoint (a port on 127.0.0.1). */
  endpoint: EndpointBody;
  /** The password of `tsdbadmin`: the service's. */
  password: string;
  /** Running (every state but the ones below), stopped (pausing, paused) or absent (deleting, gone). */
  want: DatabaseWant;
}

/** The state a status asks of the database. */
export function wantFor(status: ServiceStatus | typeof GONE): DatabaseWant {
  if (status === GONE || status === SERVICE_STATUS.DELETING || status === SERVICE_STATUS.DELETED) return "absent";
  if (status === SERVICE_STATUS.PAUSING || status === SERVICE_STATUS.PAUSED) return "stopped";
  return "running";
}

/** What every service with a database asks of it at time `now`. */
export function databaseWishes(services: readonly ServiceRecord[], now: number): DatabaseWish[] {
  return services.flatMap((s) =>
    s.database === undefined
      ? []
      : [{ serviceId: s.id, endpoint: { ...s.database }, password: s.password, want: wantFor(statusAt(s.phase, now)) }],
  );
}

/**
 * The status shown while the database has not caught up with the phase: `READY` waits
 * for a running database (showing the phase's last step, e.g. `CONFIGURING` or
 * `RESUMING`), `PAUSED` for a stopped one (`PAUSING`), gone for a removed one (`DELETING`).
 */
export function gateStatus(
  status: ServiceStatus | typeof GONE,
  phase: Phase<ServiceStatus>,
  database: DatabaseState,
): ServiceStatus | typeof GONE {
  if (status === SERVICE_STATUS.READY && database !== "running") return phase.steps.at(-1)?.status ?? SERVICE_STATUS.CONFIGURING;
  if (status === SERVICE_STATUS.PAUSED && database !== "stopped") return SERVICE_STATUS.PAUSING;
  if (status === GONE && database !== "absent") return SERVICE_STATUS.DELETING;
  return status;
}
