/**
 * Actions the API accepted but whose answer was lost (a 503 from a proxy after the
 * emulator acted): the client retries, the retry meets the 409 of the service busy with
 * that very change, and the provider sees the change already applied and carries on.
 */
import * as clouddb from "pulumi-clouddb";
import { startProxy, type Proxy } from "../client/fakeApi";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, type Cloud } from "../../harness/cloud";

describe("an action accepted but answered with a 503", () => {
  let cloud: Cloud;
  let proxy: Proxy;
  let loseNext: RegExp | undefined;

  beforeAll(async () => {
    // Transitions (0.4 to 0.6 s) outlast the client's first retry pause, so the retry
    // meets the service still busy with the change it repeats.
    cloud = await startCloud({ clockScale: 0.2 });
    proxy = await startProxy(cloud.emulator.url, (method, path) => {
      if (loseNext !== undefined && method === "POST" && loseNext.test(path)) {
        loseNext = undefined;
        return { status: 503, body: { code: "UNAVAILABLE", message: "the answer was lost" } };
      }
      return undefined;
    });
    cloud.stack.setConfig("clouddb:apiUrl", proxy.baseUrl);
  });
  afterAll(async () => {
    await cloud.close();
    await proxy.close();
  });

  const program = (db: Partial<clouddb.ServiceArgs>, vpc: "a" | "b") => () => {
    const a = new clouddb.Vpc("net-a", { name: "a", cidr: "10.4.0.0/16", regionCode: "us-east-1" });
    const b = new clouddb.Vpc("net-b", { name: "b", cidr: "10.5.0.0/16", regionCode: "us-east-1" });
    new clouddb.Service("db", { name: "lossy", vpcId: vpc === "a" ? a.vpcId : b.vpcId, ...db });
  };

  /** The answers the emulator gave to `POST .../<action>`, in order. */
  const answers = async (action: string): Promise<number[]> =>
    (await cloud.requests()).filter((r) => r.method === "POST" && r.path.endsWith(`/${action}`)).map((r) => r.status);

  beforeAll(async () => {
    expectNoErrors(await cloud.stack.up(program({}, "a")));
  });

  it.each([
    ["resize", { cpuMillis: 1000, memoryGbs: 4 }, "a"],
    ["setHA", { cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 } }, "a"],
    ["detachFromVPC", { cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 } }, "b"],
    ["attachToVPC", { cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 } }, "a"],
    ["stop", { cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 }, paused: true }, "a"],
    ["start", { cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 }, paused: false }, "a"],
  ] as const)("%s: the update converges, the repeated action meeting a 409 that the provider sees through", async (action, db, vpc) => {
    await cloud.clearRequests();
    loseNext = new RegExp(`/${action}$`);
    const r = expectNoErrors(await cloud.stack.up(program(db, vpc)));
    expect(ops(r).db).toBe("update");
    expect(loseNext).toBeUndefined(); // the answer really was lost
    const statuses = await answers(action);
    expect(statuses).toEqual([202, 409]);
    const live = await cloud.api.perform("getService", { service: cloud.stack.resource("db").id, fresh: true });
    expect(live.resources![0].spec).toMatchObject({ cpu_millis: db.cpuMillis, memory_gbs: db.memoryGbs });
    expect(live.ha_replicas?.replica_count ?? 0).toBe("haReplicas" in db ? 1 : 0);
    expect(live.status).toBe("paused" in db && db.paused ? "PAUSED" : "READY");
    const expectedVpc = cloud.stack.resource(vpc === "a" ? "net-a" : "net-b").id;
    expect((live.vpcEndpoint as { vpc_id?: string } | undefined)?.vpc_id).toBe(expectedVpc);
    const again = expectNoErrors(await cloud.stack.up(program(db, vpc)));
    expect(ops(again).db).toBe("same");
  });
});
