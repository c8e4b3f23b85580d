/**
 * ReadReplicaSet through Pulumi's real dynamic-provider host, against the emulator: what
 * service.test.ts does not cover (creating while the service is busy, adoption, lookup,
 * a set deleted out of band, deletion). The in-place changes and replacements of a set
 * are in service.test.ts, next to its service.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

describe("ReadReplicaSet", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  const program = (db: Partial<clouddb.ServiceArgs>, sets: Array<Partial<clouddb.ReadReplicaSetArgs> & { name: string }>) => () => {
    const svc = new clouddb.Service("db", { name: "replicated", ...db });
    const made = sets.map(
      (s) => new clouddb.ReadReplicaSet(s.name, { serviceId: svc.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2, ...s }),
    );
    return { serviceId: svc.serviceId, ids: made.map((m) => m.replicaSetId) };
  };

  it("previews a set of a service not yet created, with its serviceId unknown, sending nothing", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.preview(program({}, [{ name: "rs1" }])));
    expect(ops(r)).toEqual({ db: "create", rs1: "create" });
    expect(await cloud.requests()).toEqual([]);
  });

  it("creates a set, waiting until it is active", async () => {
    const r = expectNoErrors(await cloud.stack.up(program({}, [{ name: "rs1" }])));
    expect(ops(r)).toEqual({ db: "create", rs1: "create" });
    const sid = cloud.stack.resource("db").id;
    const [live] = (await cloud.api.perform("listReplicaSets", { service: sid })).items;
    expect(live).toMatchObject({ id: cloud.stack.resource("rs1").id, status: "active", nodes: 1 });
    expect(cloud.stack.resource("rs1").outputs).toMatchObject({ status: "active", host: live.endpoint!.host, port: 5432 });
  });

  it("previews an in-place change of its service without showing the set replaced", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.preview(program({ environment: "PROD" }, [{ name: "rs1" }])));
    expect(ops(r)).toEqual({ db: "update", rs1: "same" });
    expect(await cloud.requests()).toEqual([]);
  });

  it("creates a set in the same up as a service resize, waiting out a 409 while the service is busy", async () => {
    const sid = cloud.stack.resource("db").id;
    await cloud.clearRequests();
    // rs2 names the service by its id, not its output: it registers while the resize may
    // still run; the API's 409 for a busy service is also injected twice to be sure.
    expect((await cloud.control("POST", "/faults", { method: "POST", path: "/replicaSets$", status: 409, count: 2 })).status).toBe(201);
    const r = expectNoErrors(
      await cloud.stack.up(program({ cpuMillis: 1000, memoryGbs: 4 }, [{ name: "rs1" }, { name: "rs2", nodes: 2, serviceId: sid }])),
    );
    expect(ops(r)).toEqual({ db: "update", rs1: "same", rs2: "create" });
    const sets = (await cloud.api.perform("listReplicaSets", { service: sid })).items;
    expect(sets.map((s) => [s.name, s.status, s.nodes]).sort()).toEqual([
      ["rs1", "active", 1],
      ["rs2", "active", 2],
    ]);
    const creates = writes(await cloud.requests()).filter((w) => w.method === "POST" && w.path.endsWith("/replicaSets"));
    expect(creates.filter((w) => w.status === 202)).toHaveLength(1);
    expect(creates.filter((w) => w.status === 409).length).toBeGreaterThanOrEqual(2);
  });

  it("looks a set up read-only with ReadReplicaSet.get", async () => {
    const sid = cloud.stack.resource("db").id;
    const id = cloud.stack.resource("rs2").id;
    const r = expectNoErrors(
      await cloud.stack.up(() => {
        program({ cpuMillis: 1000, memoryGbs: 4 }, [{ name: "rs1" }, { name: "rs2", nodes: 2, serviceId: sid }])();
        const found = clouddb.ReadReplicaSet.get("found", id, { serviceId: sid });
        const svc = clouddb.Service.get("found-db", sid);
        return { nodes: found.nodes, name: found.name, svcName: svc.name, cpu: svc.cpuMillis };
      }),
    );
    expect(r.outputs).toEqual({ nodes: 2, name: "rs2", svcName: "replicated", cpu: 1000 });
    expect(
      cloud.stack
        .resources()
        .map((x) => x.name)
        .sort(),
    ).toEqual(["db", "rs1", "rs2"]);
  });

  it("drops a set deleted out of band on refresh, and the next up creates it again", async () => {
    const sid = cloud.stack.resource("db").id;
    const id = cloud.stack.resource("rs2").id;
    await cloud.api.perform("deleteReplicaSet", { service: sid, replicaSet: id });
    await cloud.api.waitForReplicaSetDeleted(sid, id, { timeoutMs: 10_000 });
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(refreshed.steps.find((s) => s.name === "rs2")!.op).toBe("refresh-delete");
    const r = expectNoErrors(
      await cloud.stack.up(program({ cpuMillis: 1000, memoryGbs: 4 }, [{ name: "rs1" }, { name: "rs2", nodes: 2, serviceId: sid }])),
    );
    expect(ops(r).rs2).toBe("create");
    expect((await cloud.api.perform("listReplicaSets", { service: sid })).items.map((s) => s.name).sort()).toEqual(["rs1", "rs2"]);
  });

  it("adopts an existing set with adoptId, and refuses one whose name differs", async () => {
    const sid = cloud.stack.resource("db").id;
    const made = await cloud.api.perform("createReplicaSet", {
      service: sid,
      body: { name: "by-hand", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    await cloud.api.waitForReplicaSet(sid, made.id, { until: ["active"], timeoutMs: 10_000 });
    const base = [{ name: "rs1" }, { name: "rs2", nodes: 2, serviceId: sid }];
    const bad = await cloud.stack.up(program({ cpuMillis: 1000, memoryGbs: 4 }, [...base, { name: "adopted", adoptId: made.id }]));
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0].message).toMatch(/has name "by-hand" but the program asks for "adopted"/);
    await cloud.clearRequests();
    const r = expectNoErrors(
      await cloud.stack.up(() => {
        program({ cpuMillis: 1000, memoryGbs: 4 }, base)();
        new clouddb.ReadReplicaSet("adopted", {
          serviceId: sid,
          name: "by-hand",
          adoptId: made.id,
          nodes: 2,
          cpuMillis: 500,
          memoryGbs: 2,
        });
      }),
    );
    expect(ops(r).adopted).toBe("create");
    expect(cloud.stack.resource("adopted").id).toBe(made.id);
    expect(writes(await cloud.requests()).map((w) => w.path.replace(/.*\/replicaSets/, "/replicaSets"))).toEqual([
      `/replicaSets/${made.id}/resize`,
    ]);
    expect((await cloud.api.perform("listReplicaSets", { service: sid })).items.find((s) => s.id === made.id)!.nodes).toBe(2);
  });

  it("deletes the sets, waiting until they are gone, before the service", async () => {
    const sid = cloud.stack.resource("db").id;
    const r = expectNoErrors(await cloud.stack.destroy());
    // rs1 takes the service's id from its output: a dependent, deleted in the wave before the
    // service's. rs2 and adopted were given the id as a plain string: not dependents, so they
    // are deleted in the service's own wave, side by side with it (and are gone either way).
    const order = r.steps.map((s) => s.name);
    expect(order.indexOf("rs1")).toBeLessThan(order.indexOf("db"));
    expect([...order].sort()).toEqual(["adopted", "db", "rs1", "rs2"]);
    expect(r.steps.map((s) => s.op).every((op) => op === "delete")).toBe(true);
    await expect(cloud.api.perform("listReplicaSets", { service: sid }).then((r) => r.items)).rejects.toMatchObject({ status: 404 });
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
  });
});
