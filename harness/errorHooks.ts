/**
 * `onError` resource hooks (pulumi/pulumi pkg/resource/deploy/retries.go `withRetries`, used
 * by step.go `CreateStep.Apply`): a failed Create is sent again while the hook asks for it,
 * at most 100 tries, with a warning before each retry. Engines 3.244 to 3.260 send the same
 * Create again, a partial failure's included (the last answer is kept); 3.27x sends an Update
 * of a partially created resource instead. The harness models the former.
 */
import { EngineDied } from "./engineRun";

/** The engine's cap on tries (retries.go `maxErrorHookRetries`). */
const MAX_TRIES = 100;

/**
 * Runs `send` once, and again after each failure while a hook asks for it (`retries` times at
 * most), calling `warn` with the engine's warning before each retry.
 */
export async function withErrorHookRetries<T>(retries: number, send: () => Promise<T>, warn: (message: string) => void): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await send();
    } catch (e) {
      if (e instanceof EngineDied || failures > retries || failures >= MAX_TRIES) throw e;
      warn(`retrying create due to on-error hook request (${failures}/${MAX_TRIES})`);
    }
  }
}
