/**
 * The poll hub's bookkeeping of shared sources, at the edge the emulator cannot time: a
 * wait that begins on a source while the poll that ended the source's last wait is still
 * being delivered. The hub must then poll for the new wait alone, and stop once it is over.
 */
import type { Service } from "../../provider/client";
import { PollHub, type WatchSpec } from "../../provider/client/pollHub";
import { TransitionDurations } from "../../provider/client/transitionDurations";

/** The answer of the fake service list: two services, both READY. */
const LIST = [{ service_id: "a", status: "READY" } as Service, { service_id: "b", status: "READY" } as Service];

describe("PollHub", () => {
  it("stops polling a source once its waits are over, also when one begins as the last one ends", async () => {
    const hub = new PollHub(new TransitionDurations());
    let fetches = 0;
    const source = {
      key: "services of p",
      fetch: async () => {
        fetches += 1;
        return { answer: LIST, sentAt: Date.now() };
      },
    };
    const spec = (id: string): WatchSpec<"service", Service[]> => ({
      resource: { kind: "service", id, projectId: "p" },
      operation: "waitForService",
      goal: { status: ["READY"] },
      timeoutMs: 10_000,
      schedule: { initialMs: 10, maxMs: 50 },
      source,
      locate: async (answer) => {
        const found = answer.find((s) => s.service_id === id);
        return found ? { present: true, value: found } : { present: false };
      },
    });
    try {
      // `then` runs as soon as the first wait is resolved, before the poll's delivery ends.
      const second = await new Promise((resolve, reject) => {
        hub.watch(spec("a")).then(() => hub.watch(spec("b")).then(resolve, reject), reject);
      });
      expect(second).toMatchObject({ service_id: "b", status: "READY" });
      expect(hub.waiting).toBe(0);
      const polled = fetches;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fetches).toBe(polled);
    } finally {
      hub.close();
    }
  });
});
