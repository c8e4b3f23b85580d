/**
 * A fleet of API clients in this process, as the stacks of a fleet run them: K clients, each
 * with a pacing directory of its own (as on machines of their own) or one for all (as on one
 * machine), all with one API key that the emulator limits; each lists the project's services
 * (a create's look-alikes), then creates its services at once and waits for each to be ready.
 * Counted in the emulator's request log, over real HTTP. For the tests of pacing across
 * machines (tests/client/fleetPacing.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RateLimitPolicy } from "../../emulator";
import { EmulatorControl, type LoggedRequest } from "../../emulator/control-client";
import { ClouddbClient, type ClouddbClientOptions } from "../../provider/client";
import type { Emu } from "./emulatorControl";
import { numberedAs } from "./fleetSim";

/** A fleet to run. */
export interface FleetOptions {
  /** Clients (stacks). */
  k: number;
  /** Services each creates. */
  services: number;
  /** One pacing directory for all (one machine), or one each (as many machines). */
  machines: "one" | "many";
  /** The API's limit and how its 429s look. */
  limit: RateLimitPolicy;
  /** Also two 429s of `Retry-After: 5` every 5 s (a gateway that sprinkles them). */
  sprinkled?: boolean;
  /** How long a client waits for a service. @default 120 s */
  timeoutMs?: number;
  /** Each client told the fleet it is part of (the client's `fleet`). @default none */
  fleet?: ClouddbClientOptions["fleet"];
  /** Each client (a machine of its own) told its number in that fleet too: client `i` is `i` modulo its machines. @default false */
  numbered?: boolean;
}

/** What a fleet's run gave. */
export interface FleetFigures {
  /** Answers that were 429, and all answers. */
  refused: number;
  answers: number;
  /** First to last request, ms. */
  wallMs: number;
  /** Each client's time from the start to its last service ready (undefined: a failure), ms. */
  clientMs: (number | undefined)[];
  /** Failures of the clients' calls. */
  errors: string[];
  /** The log itself. */
  log: LoggedRequest[];
}

/** Runs the fleet against `emu` (its rate limit set as `opts.limit` says, then lifted). */
export async function runFleetOfClients(emu: Emu, opts: FleetOptions): Promise<FleetFigures> {
  const control = new EmulatorControl(emu.url, emu.pat);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-of-clients-"));
  const dirOf = (i: number): string => path.join(root, opts.machines === "one" ? "machine" : `machine-${i}`, "pacing");
  const clients = Array.from(
    { length: opts.k },
    (_, i) =>
      new ClouddbClient({
        apiUrl: emu.baseUrl,
        apiKey: emu.pat,
        projectId: emu.projectId,
        pacingDir: dirOf(i),
        ...(opts.fleet === undefined ? {} : { fleet: opts.numbered === true ? numberedAs(opts.fleet, i) : opts.fleet }),
        retryDeadlineMs: opts.timeoutMs ?? 120_000,
        poll: { initialMs: 250, maxMs: 10_000 },
      }),
  );
  const errors: string[] = [];
  let sprinkler: NodeJS.Timeout | undefined;
  const sprinkles: NodeJS.Timeout[] = [];
  try {
    await control.rateLimit(opts.limit.requestsPerSecond, opts.limit);
    await control.clearRequests();
    const started = Date.now();
    if (opts.sprinkled === true) {
      // In each 5 s, from a moment at random, the next two requests; those not answered so lapse (a gateway's refusals per time).
      const period = (): void => {
        void control.send("DELETE", "/faults").catch(() => undefined);
        const rule = { path: ".*", status: 429, count: 2, retryAfter: 5 } as Parameters<EmulatorControl["fault"]>[0];
        sprinkles.push(setTimeout(() => void control.fault(rule).catch(() => undefined), Math.random() * 5_000));
      };
      period();
      sprinkler = setInterval(period, 5_000);
    }
    const clientMs = await Promise.all(
      clients.map(async (c, i) => {
        try {
          await c.perform("listServices");
          await Promise.all(
            Array.from({ length: opts.services }, async (_, j) => {
              const made = await c.perform("createService", { body: { name: `fleet-${i}-${j}` } });
              await c.waitForService(made.service_id, { until: ["READY"], timeoutMs: opts.timeoutMs ?? 120_000 });
            }),
          );
          return Date.now() - started;
        } catch (e) {
          errors.push(`client ${i}: ${(e as Error).message}`);
          return undefined;
        }
      }),
    );
    const log = (await control.requests()).filter((r) => r.path.startsWith("/public/api/v1/"));
    const wallMs = log.length === 0 ? 0 : Date.parse(log[log.length - 1].at) - Date.parse(log[0].at);
    return { refused: log.filter((r) => r.status === 429).length, answers: log.length, wallMs, clientMs, errors, log };
  } finally {
    clearInterval(sprinkler);
    for (const t of sprinkles) clearTimeout(t);
    await Promise.all(clients.map((c) => c.close()));
    await control.rateLimit(0);
    await control.send("DELETE", "/faults").catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  }
}
