/**
 * Ports of the database servers on 127.0.0.1. They are drawn from 20000-31999, below
 * Linux's ephemeral range (32768 and up), so servers listening on port 0 elsewhere
 * never take them; whether one is free is checked when a server starts.
 */
import net from "node:net";

/** Lowest port handed out. */
export const FIRST_PORT = 20_000;
/** One past the highest port handed out. */
export const END_PORT = 32_000;

/** A random port in the range not in `taken` (not checked against the system). */
export function pickPort(taken: ReadonlySet<number>): number {
  for (;;) {
    const port = FIRST_PORT + Math.floor(Math.random() * (END_PORT - FIRST_PORT));
    if (!taken.has(port)) return port;
  }
}

/** True when nothing listens on `127.0.0.1:port` (checked by listening on it briefly). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port of the range that is free now and not in `taken`. @throws Error after 100 busy tries */
export async function freePort(taken: ReadonlySet<number>): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = pickPort(taken);
    if (await isPortFree(port)) return port;
  }
  throw new Error(`no free port found in ${FIRST_PORT}-${END_PORT - 1}`);
}
