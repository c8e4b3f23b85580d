/**
 * Every definition's `check`, in process: one failure per bad property, naming the property,
 * the value and what is allowed; internal inputs and unknowns pass.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { OWNER_KEY, REPLACE_ON_CHANGES_KEY } from "../../provider/framework/internalInputs";
import { defineResourceProvider } from "../../provider/framework/resourceProvider";
import { UNKNOWN } from "../../provider/framework/unknowns";
import { RESOURCES } from "../../provider/resources/registry";

const providerOf = (kind: string) => defineResourceProvider(RESOURCES.find((r) => r.definition.schema.kind === kind)!.definition);

/** A valid input of each kind. */
const VALID: Record<string, Record<string, unknown>> = {
  Vpc: { name: "net", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
  VpcPeering: { vpcId: "1234", peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-0abc1234" },
  Service: { name: "db", cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 2, syncReplicaCount: 1 }, environment: "PROD" },
  ReadReplicaSet: { serviceId: "abcdefghij", name: "reads", nodes: 2, cpuMillis: 500, memoryGbs: 2 },
};

/** A configuration that is all well (the configuration's problems are `check` failures too). */
const CONFIG: Record<string, string> = {
  "clouddb:apiUrl": "https://api.example/public/api/v1",
  "clouddb:apiKey": "key",
  "clouddb:projectId": "proj000001",
};

describe("check", () => {
  beforeAll(async () => {
    // Pulumi hands `configure` its Config object; only its `get` is read.
    await providerOf("Vpc").configure({ config: { get: (key: string) => CONFIG[key] } } as unknown as ConfigureRequest);
  });

  it.each(Object.keys(VALID))("accepts a valid %s, with the internal inputs the SDK adds", async (kind) => {
    const news = { ...VALID[kind], __provider: "exports.handler = () => ({});", [OWNER_KEY]: "p/s/t/n", [REPLACE_ON_CHANGES_KEY]: ["*"] };
    expect(await providerOf(kind).check({}, news)).toEqual({ inputs: news, failures: [] });
  });

  it.each(Object.keys(VALID))("lets an unknown value of a %s through (a preview)", async (kind) => {
    const [first] = Object.keys(VALID[kind]);
    expect((await providerOf(kind).check({}, { ...VALID[kind], [first]: UNKNOWN })).failures).toEqual([]);
  });

  it.each([
    ["Vpc", { cidr: "10.0.0.1/16" }, "cidr", /10\.0\.0\.1\/16/],
    ["Vpc", { regionCode: "mars-1" }, "regionCode", /mars-1/],
    ["Service", { cpuMillis: 1000, memoryGbs: 2 }, "memoryGbs", /not an allowed pair/],
    ["Service", { environment: "STAGING" }, "environment", /"STAGING"/],
    ["Service", { haReplicas: { replicaCount: 3 } }, "haReplicas.replicaCount", /0 to 2/],
    ["ReadReplicaSet", { nodes: 11 }, "nodes", /11/],
    ["VpcPeering", { peerAccountId: "" }, "peerAccountId", /""/],
  ])("refuses a bad %s %j, naming %s and the value", async (kind, bad, property, reason) => {
    const failures = (await providerOf(kind).check({}, { ...VALID[kind], ...bad })).failures ?? [];
    expect(failures.map((f) => f.property)).toContain(property);
    expect(failures.find((f) => f.property === property)!.reason).toMatch(reason);
  });

  it("names an input the resource does not have and the closest it has", async () => {
    const failures = (await providerOf("Service").check({}, { ...VALID.Service, cpuMilis: 1000 })).failures ?? [];
    expect(failures).toEqual([expect.objectContaining({ property: "cpuMilis", reason: expect.stringMatching(/cpuMillis/) })]);
  });
});
