/** The emulator's control path, `/_emulator/...` (emulator/README.md, "Control path"). */
import { z } from "zod";
import type { ClouddbModel } from "../model/clouddb-model";
import type { OffsetClock, ReportedClock } from "../model/clock";
import { empty, json, type Answer } from "./answer";
import { parseControlInput } from "./control-input";
import type { Faults } from "./faults";
import type { RateLimiter } from "./rate-limiter";
import type { RequestLog } from "./request-log";
import type { Rewrites } from "./rewrites";
import { Router } from "./router";

/** Prefix of the control path. */
export const CONTROL_PREFIX = "/_emulator";

/** What the control path acts on. */
export interface ControlTargets {
  /** The domain model. */
  model: ClouddbModel;
  /** The emulator clock (transitions; moved by `advanceMs`, persisted). */
  clock: OffsetClock;
  /** The clock the server reports (offset by `offsetMs`; control state). */
  reportedClock: ReportedClock;
  /** Fault rules. */
  faults: Faults;
  /** Rewrite rules. */
  rewrites: Rewrites;
  /** The API rate limiter. */
  rateLimiter: RateLimiter;
  /** The request log. */
  log: RequestLog;
  /** Sets the latency added to every API request. */
  setLatency(ms: number): void;
  /**
   * How far the `Date` header runs from the server's reported clock (a gateway stamping its
   * own clock; `created` keeps the server's), and by how much more every second API answer's
   * runs (`flip`: a pool of gateways whose clocks disagree).
   */
  dateOffset: { get(): number; set(ms: number): void; flip(): number; setFlip(ms: number): void };
  /** Empties resources and every piece of control state (rules, latency, rate limit, clock offsets, log, remembered answers). */
  reset(): void | Promise<void>;
}

/** What a control handler gets. */
export interface ControlContext {
  /** Path parameters. */
  params: Record<string, string>;
  /** The JSON body (`{}` when empty). @throws InvalidRequestError */
  body(): unknown;
}

/** A control operation. */
export type ControlHandler = (ctx: ControlContext) => Answer | Promise<Answer>;

const LatencyInput = z.object({ ms: z.number().int().min(0).max(600_000) });
const RateLimitInput = z.object({
  requestsPerSecond: z.number().min(0),
  retryAfter: z.boolean().optional(),
  headers: z.boolean().optional(),
});
const ClockInput = z
  .object({
    advanceMs: z.number().min(0).optional(),
    offsetMs: z.number().optional(),
    dateOffsetMs: z.number().optional(),
    dateFlipMs: z.number().optional(),
  })
  .refine((c) => c.advanceMs !== undefined || c.offsetMs !== undefined || c.dateOffsetMs !== undefined || c.dateFlipMs !== undefined, {
    message: "give advanceMs, offsetMs, dateOffsetMs, dateFlipMs or several",
  });
const FailPeeringInput = z.object({ errorMessage: z.string().min(1).optional() });

/** The router of the control path (patterns relative to {@link CONTROL_PREFIX}). */
export function controlRouter(targets: ControlTargets): Router<ControlHandler> {
  return new Router<ControlHandler>()
    .on("POST", "/reset", async () => {
      await targets.reset();
      return empty(204);
    })
    .on("POST", "/faults", (c) => json(201, targets.faults.add(c.body())))
    .on("DELETE", "/faults", () => {
      targets.faults.clear();
      return empty(204);
    })
    .on("POST", "/rewrites", (c) => json(201, targets.rewrites.add(c.body())))
    .on("DELETE", "/rewrites", () => {
      targets.rewrites.clear();
      return empty(204);
    })
    .on("POST", "/latency", (c) => {
      targets.setLatency(parseControlInput(LatencyInput, c.body()).ms);
      return empty(204);
    })
    .on("POST", "/rate-limit", (c) => {
      targets.rateLimiter.setPolicy(parseControlInput(RateLimitInput, c.body()));
      return empty(204);
    })
    .on("POST", "/clock", (c) => {
      const { advanceMs, offsetMs, dateOffsetMs, dateFlipMs } = parseControlInput(ClockInput, c.body());
      if (advanceMs !== undefined) targets.clock.advance(advanceMs);
      if (offsetMs !== undefined) targets.reportedClock.setOffset(offsetMs);
      if (dateOffsetMs !== undefined) targets.dateOffset.set(dateOffsetMs);
      if (dateFlipMs !== undefined) targets.dateOffset.setFlip(dateFlipMs);
      return empty(204);
    })
    .on("GET", "/clock", () =>
      json(200, {
        emulatorTime: new Date(targets.clock.now()).toISOString(),
        serverTime: new Date(targets.reportedClock.now()).toISOString(),
        advancedMs: targets.clock.offset,
        offsetMs: targets.reportedClock.offset,
        dateOffsetMs: targets.dateOffset.get(),
        dateFlipMs: targets.dateOffset.flip(),
      }),
    )
    .on("POST", "/services/:service_id/unstable", (c) => {
      targets.model.injections.makeServiceUnstable(c.params.service_id);
      return empty(204);
    })
    .on("POST", "/services/:service_id/recover", (c) => {
      targets.model.injections.recoverService(c.params.service_id);
      return empty(204);
    })
    .on("POST", "/replica-sets/:replica_set_id/error", (c) => {
      targets.model.injections.failReplicaSet(c.params.replica_set_id);
      return empty(204);
    })
    .on("POST", "/peerings/:peering_id/fail", (c) => {
      targets.model.injections.failPeering(c.params.peering_id, parseControlInput(FailPeeringInput, c.body()).errorMessage);
      return empty(204);
    })
    .on("GET", "/requests", () => json(200, targets.log.list()))
    .on("DELETE", "/requests", () => {
      targets.log.clear();
      return empty(204);
    });
}
