/**
 * Runs a Pulumi program in this process's Pulumi runtime against a {@link HarnessMonitor}:
 * resets the runtime, sets the config, runs the program inside the root stack resource,
 * and waits until every registration has finished.
 */
import * as pulumi from "@pulumi/pulumi";
import * as vm from "vm";
import { message } from "./engineRun";
import { HarnessMonitor } from "./monitor";

/** Options of {@link runProgram}. */
export interface RunOptions {
  project: string;
  stack: string;
  preview: boolean;
  config: Record<string, string>;
  /** Receives what the program logs (`pulumi.log.*`, the runtime's own warnings), as the engine does. */
  log?: (severity: "info" | "warning" | "error", message: string) => void;
}

/** How the runtime logs when it has no engine to send to (@pulumi/pulumi log/index.ts). */
const RUNTIME_LOG = /^(info|warning|error): \[runtime\] ([\s\S]*)$/;

/**
 * For the duration of `body`, what the runtime would send to the engine's Log RPC reaches
 * `log` instead of the console. The engine prints those as diagnostics of the run (pulumi/pulumi
 * v3.248.0, pkg/host/host_server.go `Log` L91-113); our runtime runs with a mock monitor and no
 * engine, so it writes them to the console with a `<severity>: [runtime] ` prefix.
 */
async function routingRuntimeLog<T>(log: RunOptions["log"], body: () => Promise<T>): Promise<T> {
  if (!log) return body();
  const saved = { log: console.log, warn: console.warn, error: console.error };
  const route =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      const m = args.length === 1 && typeof args[0] === "string" ? RUNTIME_LOG.exec(args[0]) : null;
      if (m) log(m[1] as "info" | "warning" | "error", m[2]);
      else original.apply(console, args);
    };
  console.log = route(saved.log);
  console.warn = route(saved.warn);
  console.error = route(saved.error);
  try {
    return await body();
  } finally {
    Object.assign(console, saved);
  }
}

/** The process of the outermost context (jest runs tests in a vm context with a copy of `process`). */
const realProcess = vm.runInThisContext("process") as NodeJS.Process;

const REGISTRATION_FAILURE = /^failed to (register new|read) resource /;

/**
 * Runs `program` as the engine's language host would: inside `runInPulumiStack`, so its return
 * value becomes the stack outputs (sent through RegisterResourceOutputs). Returns program
 * errors (a throw, or a rejection nobody handled that is not a failed registration, which the
 * engine side reports already). Never throws.
 */
export async function runProgram(program: () => unknown, monitor: HarnessMonitor, opts: RunOptions): Promise<string[]> {
  const errors: string[] = [];
  // setMockOptions resets the runtime's global state (stack resource, rpc queue, features).
  pulumi.runtime.setMockOptions(monitor, opts.project, opts.stack, opts.preview);
  pulumi.runtime.setAllConfig({ ...opts.config });

  // The language host ends the program at its first unhandled rejection: it reports it, and the
  // process exits once nothing else is pending, outputs still waiting on what never registered
  // included (sdk/nodejs/cmd/run/run.ts, `uncaughtHandler`: exit code 32).
  let failed!: () => void;
  const programFailed = new Promise<void>((resolve) => (failed = resolve));
  let rejections = 0;
  const onUnhandled = (reason: unknown): void => {
    rejections++;
    const msg = message(reason);
    // A failed registration is reported by the engine side already, but it ends the program
    // all the same (which rejections an SDK leaves unhandled differs: 3.248 also rejects the
    // dependents' serialization, 3.216 only the registration).
    if (!REGISTRATION_FAILURE.test(msg)) errors.push(`unhandled rejection: ${msg}`);
    failed();
  };
  // A failed registration rejects the resource's outputs and the SDK's internal promises, and
  // nobody handles those rejections (the engine's language host just logs them). Under jest the
  // listener that fails the running test sits on the real process (the sandbox's `process` is a
  // copy), so for the duration of the run we take the real process's listeners aside.
  const saved = realProcess.listeners("unhandledRejection");
  realProcess.removeAllListeners("unhandledRejection");
  realProcess.on("unhandledRejection", onUnhandled);
  try {
    await routingRuntimeLog(opts.log, () =>
      Promise.race([drained(program, monitor, errors), programFailed.then(() => settled(monitor, () => rejections))]),
    );
  } finally {
    realProcess.off("unhandledRejection", onUnhandled);
    for (const l of saved) realProcess.on("unhandledRejection", l as (...args: unknown[]) => void);
  }
  return errors;
}

/**
 * After the program failed: waits until no monitor call is in flight and two turns of the
 * event loop brought no further rejection. A registration the deployment halted rejects the
 * resource's outputs only a turn after its answer (@pulumi/pulumi 3.248 rejects each
 * output's promises): those rejections belong to this run, and must reach its handler, not
 * the test runner's.
 */
async function settled(monitor: HarnessMonitor, rejections: () => number): Promise<void> {
  for (;;) {
    await monitor.idle();
    const seen = rejections();
    for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
    if (monitor.quiet() && rejections() === seen) return;
  }
}

/** Runs the program, then waits until every registration it made has finished. */
async function drained(program: () => unknown, monitor: HarnessMonitor, errors: string[]): Promise<void> {
  try {
    await pulumi.runtime.runInPulumiStack(async () => program());
  } catch (e) {
    // A failed registration surfacing through the program is reported by the engine side already.
    if (!REGISTRATION_FAILURE.test(message(e))) errors.push(`program failed: ${message(e)}`);
  }
  // Drain the runtime's RPC queue (registrations still being prepared or in flight) and our
  // own in-flight handlers; repeat until the queue did not grow across a macrotask turn
  // (apply callbacks may register resources after an RPC's keep-alive was released).
  for (;;) {
    const before = rpcQueue();
    await pulumi.runtime.disconnect();
    await monitor.idle();
    await new Promise<void>((r) => setImmediate(r));
    if (rpcQueue() === before && monitor.quiet()) break;
  }
}

interface RuntimeStore {
  settings: { rpcDone: Promise<unknown> };
}
// The runtime's store (internal module of the same @pulumi/pulumi copy): its `rpcDone` promise
// is replaced whenever a new RPC is queued.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtimeState = require("@pulumi/pulumi/runtime/state") as { getStore(): RuntimeStore };

function rpcQueue(): Promise<unknown> {
  return runtimeState.getStore().settings.rpcDone;
}
