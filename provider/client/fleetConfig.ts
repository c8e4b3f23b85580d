/**
 * The fleet a client is told it is part of (`fleet`, else `CLOUDDB_FLEET_MACHINES` and
 * `CLOUDDB_KEY_RATE_LIMIT`): how many machines share its API key at once, and the key's limit.
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

/**
 * The fleet the client is part of: `option` when given, else the environment's; undefined when
 * neither tells one.
 *
 * @throws ConfigurationError naming the option or the variable and its value, when the count is
 * not a whole number from 1 to 10000, the limit not a number above 0, or a limit is given
 * without the count of machines it is shared by.
 */
export function resolveFleet(option: FleetOptions | undefined, env: NodeJS.ProcessEnv = process.env): FleetOptions | undefined {
  if (option !== undefined) {
    const problem =
      machinesProblem(option.machines) ?? (option.limitPerSecond === undefined ? undefined : limitProblem(option.limitPerSecond));
    if (problem !== undefined) throw new ConfigurationError(`Invalid \`fleet\`: ${problem}.`, "fleet");
    return option;
  }
  const given = (name: string): string | undefined => (env[name]?.trim() ? env[name] : undefined);
  const [machines, limit] = [given(FLEET_MACHINES_ENV), given(KEY_RATE_LIMIT_ENV)];
  if (machines === undefined) {
    if (limit === undefined) return undefined;
    throw new ConfigurationError(
      `${KEY_RATE_LIMIT_ENV} is set (${JSON.stringify(limit)}) but ${FLEET_MACHINES_ENV} is not: the limit paces a fleet's grid, set how many machines share the key.`,
      "fleet",
    );
  }
  const problem = machinesProblem(machines);
  if (problem !== undefined) throw new ConfigurationError(`Invalid ${FLEET_MACHINES_ENV}: ${problem}.`, "fleet");
  const limitText = limit === undefined ? undefined : limitProblem(limit);
  if (limitText !== undefined) throw new ConfigurationError(`Invalid ${KEY_RATE_LIMIT_ENV}: ${limitText}.`, "fleet");
  return { machines: Number(machines.trim()), ...(limit === undefined ? {} : { limitPerSecond: Number(limit.trim()) }) };
}
