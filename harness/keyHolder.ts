/**
 * Another user of an API key: requests sent as fast as the API admits them, so the key's rate
 * limit is held by someone else (the other stacks of a fleet) while a test's own client or
 * stack waits its turn. Plain `fetch`, no pacing: it takes every unit of quota the moment the
 * API frees it.
 */

/** Holds `apiKey`'s limit at `baseUrl` (the API's base URL) for `ms`, listing `projectId`'s services; resolves with the answers it got by status. */
export async function holdKey(baseUrl: string, apiKey: string, projectId: string, ms: number): Promise<Record<number, number>> {
  const until = Date.now() + ms;
  const statuses: Record<number, number> = {};
  const loop = async (): Promise<void> => {
    while (Date.now() < until) {
      const res = await fetch(`${baseUrl}/projects/${projectId}/services`, { headers: { authorization: `Bearer ${apiKey}` } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  await Promise.all([loop(), loop()]);
  return statuses;
}
