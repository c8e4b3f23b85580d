/**
 * A resource's `diff`, in process: what changes, what replaces (the definition's `change`
 * and the program's `replaceOnChanges`), unknowns in a preview, and state written before an
 * optional input existed.
 */
import { REPLACE_ON_CHANGES_KEY } from "../../provider/framework/internalInputs";
import { defineResourceProvider } from "../../provider/framework/resourceProvider";
import { UNKNOWN } from "../../provider/framework/unknowns";
import { serviceDefinition } from "../../provider/resources/service/definition";
import { vpcDefinition } from "../../provider/resources/vpc/definition";

const service = defineResourceProvider(serviceDefinition);
const vpc = defineResourceProvider(vpcDefinition);

/** A READY service's outputs as a create records them, for `{ name: "db" }` and the API's defaults. */
const recorded = {
  serviceId: "abcdefghij",
  projectId: "proj000001",
  name: "db",
  serviceType: "TIMESERIES",
  regionCode: "us-east-1",
  status: "READY",
  cpuMillis: 500,
  memoryGbs: 2,
  haReplicas: { replicaCount: 0, syncReplicaCount: 0 },
  environment: "DEV",
  connectionPooler: false,
  paused: false,
  password: "initial-password",
  __adopted: false,
};

describe("Service diff", () => {
  it("asks for an update that records it when the program sets or removes adoptId, or the state does not say (0.1.0)", async () => {
    const news = { name: "db", projectId: "proj000001" };
    expect(await service.diff("x", recorded, { ...news, adoptId: "abcdefghij" })).toEqual({ changes: true, replaces: [] });
    expect(await service.diff("x", { ...recorded, __adopted: true }, { ...news, adoptId: "abcdefghij" })).toEqual({
      changes: false,
      replaces: [],
    });
    expect(await service.diff("x", { ...recorded, __adopted: true }, { ...news, adoptId: UNKNOWN })).toEqual({
      changes: false,
      replaces: [],
    });
    expect(await service.diff("x", { ...recorded, __adopted: true }, news)).toEqual({ changes: true, replaces: [] });
    const { __adopted: _, ...before } = recorded;
    expect(await service.diff("x", before, news)).toEqual({ changes: true, replaces: [] });
  });

  it("finds no change when the program asks for what state records, defaults included", async () => {
    expect(await service.diff("abcdefghij", recorded, { name: "db", projectId: "proj000001" })).toEqual({ changes: false, replaces: [] });
  });

  it("updates in place for an in-place input, and replaces for a replace-only one", async () => {
    expect(await service.diff("abcdefghij", recorded, { name: "db", projectId: "proj000001", cpuMillis: 1000, memoryGbs: 4 })).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await service.diff("abcdefghij", recorded, { name: "db2", projectId: "proj000001" })).toEqual({
      changes: true,
      replaces: ["name"],
    });
  });

  it("replaces where the program's replaceOnChanges covers what changed, by path prefix", async () => {
    const news = (paths: string[], replicaCount: number, syncReplicaCount: number) => ({
      name: "db",
      projectId: "proj000001",
      haReplicas: { replicaCount, syncReplicaCount },
      [REPLACE_ON_CHANGES_KEY]: paths,
    });
    expect((await service.diff("x", recorded, news(["haReplicas"], 1, 0))).replaces).toEqual(["haReplicas"]);
    expect((await service.diff("x", recorded, news(["haReplicas.replicaCount"], 1, 0))).replaces).toEqual(["haReplicas"]);
    expect((await service.diff("x", recorded, news(["haReplicas.syncReplicaCount"], 1, 0))).replaces).toEqual([]);
    expect((await service.diff("x", recorded, news(["*"], 1, 0))).replaces).toEqual(["haReplicas"]);
    expect((await service.diff("x", recorded, news(["*"], 0, 0))).replaces).toEqual([]);
  });

  it("counts an input not known yet as a change, and as a replacement of a replace-only input", async () => {
    expect(await service.diff("x", recorded, { name: UNKNOWN, projectId: "proj000001" })).toEqual({ changes: true, replaces: ["name"] });
    expect(await service.diff("x", recorded, { name: "db", projectId: "proj000001", environment: UNKNOWN })).toEqual({
      changes: true,
      replaces: [],
    });
  });

  it("finds no change in an optional input that the state does not record and the program does not set", async () => {
    const older = Object.fromEntries(Object.entries(recorded).filter(([k]) => !["connectionPooler", "paused", "environment"].includes(k)));
    expect(await service.diff("x", older, { name: "db", projectId: "proj000001" })).toEqual({ changes: false, replaces: [] });
    expect(await service.diff("x", older, { name: "db", projectId: "proj000001", connectionPooler: true })).toEqual({
      changes: true,
      replaces: [],
    });
  });

  it("asks for an update while the recorded service is not settled, whatever else it says", async () => {
    expect(await service.diff("x", { ...recorded, status: "QUEUED" }, { name: "db", projectId: "proj000001" })).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await service.diff("x", { ...recorded, status: "PAUSED" }, { name: "db", projectId: "proj000001" })).toEqual({
      changes: false,
      replaces: [],
    });
  });
});

describe("Vpc diff", () => {
  const net = { vpcId: "1", projectId: "proj000001", name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1", __adopted: false };
  it("renames in place and replaces on a new network", async () => {
    expect(await vpc.diff("1", net, { ...net, name: "m" })).toEqual({ changes: true, replaces: [] });
    expect(await vpc.diff("1", net, { ...net, cidr: "10.1.0.0/16" })).toEqual({ changes: true, replaces: ["cidr"] });
  });
});
