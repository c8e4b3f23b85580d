/**
 * `POST /_emulator/services/{id}/recover`: an injected UNSTABLE service becomes READY
 * again with its settings unchanged; any other state is a 409 and an unknown id a 404.
 */
import { useEmulator } from "./support/emulator-api";

const api = useEmulator();

const get = async (id: string) => (await api.call("GET", api.p(`/services/${id}`))).body;

describe("recover", () => {
  it("brings an UNSTABLE service back to READY with its settings unchanged, and allows changes again", async () => {
    const s = await api.readyService({ name: "shaky", cpu_millis: "1000", memory_gbs: "4" });
    expect((await api.control("POST", `/services/${s.service_id}/unstable`)).status).toBe(204);
    const unstable = await get(s.service_id);
    expect(unstable.status).toBe("UNSTABLE");
    expect((await api.control("POST", `/services/${s.service_id}/recover`)).status).toBe(204);
    const back = await get(s.service_id);
    expect(back).toEqual({ ...unstable, status: "READY" });
    const resized = await api.call("POST", api.p(`/services/${s.service_id}/resize`), { body: { cpu_millis: "2000", memory_gbs: "8" } });
    expect(resized.status).toBe(202);
  });

  it("refuses a service that is not UNSTABLE with 409, changing nothing", async () => {
    const s = await api.readyService();
    const before = await get(s.service_id);
    const res = await api.control("POST", `/services/${s.service_id}/recover`);
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
    expect(res.body.details).toContain("READY");
    expect(await get(s.service_id)).toEqual(before);
  });

  it("answers 404 for an unknown service, and is not logged as an API request", async () => {
    await api.control("DELETE", "/requests");
    const res = await api.control("POST", "/services/zzzzzzzzzz/recover");
    expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
    expect((await api.control("GET", "/requests")).body).toEqual([]);
  });
});
