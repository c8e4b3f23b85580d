/**
 * The engine's step executor (pkg/resource/deploy/step_executor.go, v3.248.0): `parallel`
 * workers take chains of steps from an unbuffered channel, one worker runs a whole chain
 * serially, and the first failed step cancels the executor: no queued chain starts, no later
 * step of a running chain starts, while steps already inside `Apply` on other workers run
 * to completion (`executeChain` L397-430, `cancelDueToError` L432-458, `worker` L674-720);
 * with `--continue-on-error` the failure is recorded and the others go on.
 */
import * as os from "os";

/** One step: runs a provider call (or none) and records its result. Throws when the step failed. */
export type StepFn = () => Promise<void>;

/** Thrown for a chain (or a step of one) that never ran because the executor was cancelled. */
export class Cancelled extends Error {
  constructor() {
    super("cancelled: an earlier step failed");
    this.name = "Cancelled";
  }
}

/**
 * An error that must not cancel the executor: a protected delete (`cancelDueToError`
 * forces continue-on-error for `deleteProtectedError`, L444-446).
 */
export class ContinuableStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContinuableStepError";
  }
}

/** A submitted chain: `taken` resolves once a worker picked it up (false if it never will); `done` once it ran. */
export interface Submitted {
  taken: Promise<boolean>;
  done: Promise<void>;
}

interface Queued {
  chain: StepFn[];
  take: (took: boolean) => void;
  finish: (err?: unknown) => void;
}

/** Bounded worker pool with the engine's cancel-on-first-error rule. */
export class StepExecutor {
  private busy = 0;
  private readonly queue: Queued[] = [];
  private cancelledFlag = false;
  private firstError?: unknown;

  /**
   * @param parallel the number of workers (`--parallel`); below 1 counts as 1
   * @param continueOnError `--continue-on-error`: a failed step is recorded but cancels nothing
   */
  constructor(
    private readonly parallel: number,
    private readonly continueOnError = false,
  ) {}

  /** True once a step failed (or {@link cancel} was called). */
  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  /** The first error that cancelled the executor, if any. */
  get error(): unknown {
    return this.firstError;
  }

  /** Stops taking chains: queued chains reject with {@link Cancelled}. */
  cancel(err?: unknown): void {
    if (!this.cancelledFlag && err !== undefined) this.firstError = err;
    this.cancelledFlag = true;
    for (const q of this.queue.splice(0)) {
      q.take(false);
      q.finish(new Cancelled());
    }
  }

  /**
   * Hands a chain to the workers (`ExecuteSerial`). The caller (the step generator) waits
   * for `taken` before it handles the next registration, as the engine's event loop blocks on
   * the unbuffered channel while every worker is busy.
   */
  submit(chain: StepFn[]): Submitted {
    let take!: (took: boolean) => void;
    let finish!: (err?: unknown) => void;
    const taken = new Promise<boolean>((r) => (take = r));
    const done = new Promise<void>(
      (resolve, reject) =>
        (finish = (err) =>
          err === undefined ? resolve() : reject(err instanceof Error ? err : new Error(`step failed: ${JSON.stringify(err)}`))),
    );
    if (this.cancelledFlag) {
      take(false);
      finish(new Cancelled());
    } else {
      this.queue.push({ chain, take, finish });
      this.pump();
    }
    return { taken, done };
  }

  /** Runs chains side by side and waits for all of them (`ExecuteParallel`); rejects with the first failure. */
  async executeParallel(chains: StepFn[][]): Promise<void> {
    const results = await Promise.allSettled(chains.map((c) => this.submit(c).done));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason as Error;
  }

  private pump(): void {
    const workers = Math.max(1, this.parallel);
    while (this.busy < workers && this.queue.length > 0) {
      const q = this.queue.shift()!;
      this.busy++;
      q.take(true);
      void this.run(q.chain)
        .then(
          () => q.finish(),
          (e: unknown) => q.finish(e),
        )
        .finally(() => {
          this.busy--;
          this.pump();
        });
    }
  }

  private async run(chain: StepFn[]): Promise<void> {
    for (const step of chain) {
      if (this.cancelledFlag) throw new Cancelled();
      try {
        await step();
      } catch (e) {
        if (!(e instanceof ContinuableStepError) && !(e instanceof Cancelled)) {
          if (this.continueOnError) this.firstError ??= e;
          else this.cancel(e);
        }
        throw e;
      }
    }
  }
}

/** The CLI's default `--parallel`: `PULUMI_PARALLEL` when above 0, else 4 × GOMAXPROCS (pkg/cmd/pulumi/operations/up.go `defaultParallel` L71-89). */
export function defaultParallel(env: NodeJS.ProcessEnv = process.env, cpus = os.availableParallelism()): number {
  const fromEnv = Number(env.PULUMI_PARALLEL);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 4 * cpus;
}
