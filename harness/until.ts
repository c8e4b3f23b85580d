/** Waiting in tests for something another process does: a resource to appear, a file to be written. */

/**
 * Calls `probe` every 25 ms until it returns something other than `undefined`, and returns
 * that. A probe that throws counts as "not yet" (the API may be restarting); after
 * `timeoutMs` it throws, naming `what` and the probe's last error.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const v = await probe().catch((e: unknown) => {
      lastError = e;
      return undefined;
    });
    if (v !== undefined) return v;
    if (Date.now() > end) {
      throw new Error(
        `timed out waiting for ${what}${lastError === undefined ? "" : ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
