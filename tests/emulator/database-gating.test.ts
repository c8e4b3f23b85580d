/**
 * The model with a database hosting (what `--postgres` plugs in), driven without HTTP or
 * PostgreSQL: statuses wait for the database, wishes follow the service's phase, and the
 * endpoint is the database's. Runs whether or not PostgreSQL is installed.
 */
import { ClouddbModel } from "../../emulator/model/clouddb-model";
import { OffsetClock } from "../../emulator/model/clock";
import type { DatabaseHosting, DatabaseState } from "../../emulator/model/databases";

const P = "p000000001";

function fixture() {
  let wall = Date.parse("2030-01-01T00:00:00Z");
  const states = new Map<string, DatabaseState>();
  const hosting: DatabaseHosting = {
    allocate: () => ({ host: "127.0.0.1", port: 23456 }),
    stateOf: (id) => states.get(id) ?? "absent",
  };
  const model = new ClouddbModel({ clock: new OffsetClock(0, () => wall), clockScale: 1, databases: hosting });
  const status = (id: string) => model.perform("listServices", { project: P }).find((s) => s.service_id === id)?.status ?? "gone";
  const want = (id: string) => model.databaseWishes().find((w) => w.serviceId === id)?.want;
  return { model, states, status, want, tick: (ms: number) => (wall += ms) };
}

describe("a service whose database is hosted", () => {
  it("shows READY only once its database runs, PAUSED once stopped, gone once removed", () => {
    const { model, states, status, want, tick } = fixture();
    const s = model.perform("createService", { project: P }, { name: "db" });
    expect(s.endpoint).toEqual({ host: "127.0.0.1", port: 23456 });
    expect(want(s.service_id)).toBe("running");
    tick(7_000);
    expect(status(s.service_id)).toBe("CONFIGURING");
    states.set(s.service_id, "running");
    expect(status(s.service_id)).toBe("READY");

    model.perform("stopService", { project: P, service: s.service_id });
    expect(want(s.service_id)).toBe("stopped");
    tick(2_000);
    expect(status(s.service_id)).toBe("PAUSING");
    states.set(s.service_id, "stopped");
    expect(status(s.service_id)).toBe("PAUSED");

    model.perform("startService", { project: P, service: s.service_id });
    tick(2_000);
    expect(status(s.service_id)).toBe("RESUMING");
    states.set(s.service_id, "running");
    expect(status(s.service_id)).toBe("READY");

    model.perform("deleteService", { project: P, service: s.service_id });
    expect(want(s.service_id)).toBe("absent");
    tick(2_000);
    expect(status(s.service_id)).toBe("DELETING");
    states.set(s.service_id, "absent");
    expect(status(s.service_id)).toBe("gone");
  });

  it("gives the database's endpoint to the pooler and replica sets, and moves it on relocation", () => {
    const { model, states, tick } = fixture();
    const s = model.perform("createService", { project: P }, { name: "db" });
    tick(7_000);
    states.set(s.service_id, "running");
    model.perform("enableServicePooler", { project: P, service: s.service_id });
    const rs = model.perform(
      "createReplicaSet",
      { project: P, service: s.service_id },
      { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    );
    expect(rs.endpoint).toEqual({ host: "127.0.0.1", port: 23456 });
    expect(model.relocateDatabase(s.service_id, { host: "127.0.0.1", port: 23999 })).toBe(true);
    const read = model.perform("getService", { project: P, service: s.service_id });
    expect([read.endpoint.port, read.connection_pooler?.endpoint.port, read.read_replica_sets[0].endpoint.port]).toEqual([
      23999, 23999, 23999,
    ]);
    expect(model.databaseWishes()).toEqual([
      { serviceId: s.service_id, endpoint: { host: "127.0.0.1", port: 23999 }, password: expect.any(String), want: "running" },
    ]);
  });

  it("wishes the new password at once after updatePassword", () => {
    const { model, states, tick } = fixture();
    const s = model.perform("createService", { project: P }, { name: "db" });
    tick(7_000);
    states.set(s.service_id, "running");
    model.perform("updateServicePassword", { project: P, service: s.service_id }, { password: "another-secret" });
    expect(model.databaseWishes()[0].password).toBe("another-secret");
  });
});
