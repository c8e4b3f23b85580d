/**
 * The fleet a client is told it is part of (`fleet`, else `CLOUDDB_FLEET_MACHINES`,
 * `CLOUDDB_KEY_RATE_LIMIT` and `CLOUDDB_FLEET_MACHINE_INDEX`): how many machines share its API
 * key at once, the key's limit, and this machine's number among them.
 * Told, a machine paces on the fleet's grid (shaping/fleetSlots.ts) instead of finding its
 * share from the 429s.
 */
import { ConfigurationError } from "./errors";
import type { FleetOptions } from "./shaping/fleetSlots";

export type { FleetOptions } from "./shaping/fleetSlots";

/** The variable that tells how many machines share the key at once (whole, 1 or more; 1 is no fleet). */
export const FLEET_MACHINES_ENV = "CLOUDDB_FLEET_MACHINES";
/** The variable that tells the key's limit, requests per second (more than 0), where the API does not announce it. */
export const KEY_RATE_LIMIT_ENV = "CLOUDDB_KEY_RATE_LIMIT";
/** The variable that tells this machine's number in the fleet (whole, 0 to the machines less one), where each machine knows its own. */
export const FLEET_MACHINE_INDEX_ENV = "CLOUDDB_FLEET_MACHINE_INDEX";

/** Why `value` cannot be a count of machines, else undefined. */
function machinesProblem(value: unknown): string | undefined {
  const n = typeof value === "string" ? Number(value.trim()) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 10_000
    ? undefined
    : `${JSON.stringify(value)} is not a whole number of machines from 1 to 10000`;
}

/** Why `value` cannot be a limit, else undefined. */
function limitProblem(value: unknown): string | undefined {
  const n = typeof value === "string" ? Number(value.trim()) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 && n <= 1_000_000
    ? undefined
    : `${JSON.stringify(value)} is not a number of requests per second above 0`;
}

/** Why `value` cannot be the number of one of `machines` machines, else undefined. */
function indexProblem(value: unknown, machines: number): string | undefined {
  const n = typeof value === "string" ? Number(value.trim()) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n < machines
    ? undefined
    : `${JSON.stringify(value)} is not a machine's number in a fleet of ${machines}: a whole number from 0 to ${machines - 1}`;
}

/**
 * The fleet the client is part of: `option` when given, else the environment's; undefined when
 * neither tells one.
 *
 * @throws ConfigurationError naming the option or the variable and its value, when the count is
 * not a whole number from 1 to 10000, the limit not a number above 0, the machine's number not
 * a whole number from 0 to the count less one, or a limit or a number is given without the
 * count of machines.
 */
export function resolveFleet(option: FleetOptions | undefined, env: NodeJS.ProcessEnv = process.env): FleetOptions | undefined {
  if (option !== undefined) {
    const problem =
      machinesProblem(option.machines) ??
      (option.limitPerSecond === undefined ? undefined : limitProblem(option.limitPerSecond)) ??
      (option.index === undefined ? undefined : indexProblem(option.index, option.machines));
    if (problem !== undefined) throw new ConfigurationError(`Invalid \`fleet\`: ${problem}.`, "fleet");
    return option;
  }
  const given = (name: string): string | undefined => (env[name]?.trim() ? env[name] : undefined);
  const [machines, limit, index] = [given(FLEET_MACHINES_ENV), given(KEY_RATE_LIMIT_ENV), given(FLEET_MACHINE_INDEX_ENV)];
  if (machines === undefined) {
    const [name, value, what] =
      limit !== undefined ? [KEY_RATE_LIMIT_ENV, limit, "the limit paces"] : [FLEET_MACHINE_INDEX_ENV, index, "the number is a slot of"];
    if (value === undefined) return undefined;
    throw new ConfigurationError(
      `${name} is set (${JSON.stringify(value)}) but ${FLEET_MACHINES_ENV} is not: ${what} a fleet's grid, set how many machines share the key.`,
      "fleet",
    );
  }
  const problem = machinesProblem(machines);
  if (problem !== undefined) throw new ConfigurationError(`Invalid ${FLEET_MACHINES_ENV}: ${problem}.`, "fleet");
  const count = Number(machines.trim());
  const limitText = limit === undefined ? undefined : limitProblem(limit);
  if (limitText !== undefined) throw new ConfigurationError(`Invalid ${KEY_RATE_LIMIT_ENV}: ${limitText}.`, "fleet");
  const indexText = index === undefined ? undefined : indexProblem(index, count);
  if (indexText !== undefined) throw new ConfigurationError(`Invalid ${FLEET_MACHINE_INDEX_ENV}: ${indexText}.`, "fleet");
  return {
    machines: count,
    ...(limit === undefined ? {} : { limitPerSecond: Number(limit.trim()) }),
    ...(index === undefined ? {} : { index: Number(index.trim()) }),
  };
}
