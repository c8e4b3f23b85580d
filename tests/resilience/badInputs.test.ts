/**
 * Bad inputs across the four resources: each is a check failure naming the property, and
 * the emulator's request log shows that nothing was sent. A value of the wrong type, for
 * every input, is told the type it should have.
 */
import * as clouddb from "pulumi-clouddb";
import { startCloud, type Cloud } from "../../harness/cloud";
import { specsOf } from "../../provider/resources/registration";
import { RESOURCES } from "../../provider/resources/registry";

const SID = "abcde12345"; // a well-formed service id (check never calls the API)
const long = "x".repeat(129);

type Loose = Record<string, any>;
const vpc = (a: Loose) => () => void new clouddb.Vpc("r", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1", ...a });
const peering = (a: Loose) => () =>
  void new clouddb.VpcPeering("r", { vpcId: "123", peerAccountId: "acct", peerRegionCode: "us-east-1", peerVpcId: "vpc-1", ...a });
const service = (a: Loose) => () => void new clouddb.Service("r", { name: "n", ...a });
const replicas = (a: Loose) => () =>
  void new clouddb.ReadReplicaSet("r", { serviceId: SID, name: "n", nodes: 1, cpuMillis: 500, memoryGbs: 2, ...a });

/** [what, program, the properties the check failures name] */
const cases: Array<[string, () => void, string | string[]]> = [
  ["Vpc: cidr with host bits set", vpc({ cidr: "10.0.0.1/16" }), "cidr"],
  ["Vpc: cidr prefix /8", vpc({ cidr: "10.0.0.0/8" }), "cidr"],
  ["Vpc: cidr prefix /29", vpc({ cidr: "10.0.0.0/29" }), "cidr"],
  ["Vpc: cidr not an address", vpc({ cidr: "ten-dot-zero" }), "cidr"],
  ["Vpc: unknown region", vpc({ regionCode: "mars-1" }), "regionCode"],
  ["Vpc: empty name", vpc({ name: "" }), "name"],
  ["Vpc: name of 129 characters", vpc({ name: long }), "name"],
  ["Vpc: name with a control character", vpc({ name: "a\nb" }), "name"],
  ["Vpc: project id of the wrong shape", vpc({ projectId: "Nope" }), "projectId"],
  ["Vpc: timeout that is no duration", vpc({ timeouts: { create: "soon" } }), "timeouts.create"],
  ["Vpc: adoptId not numeric", vpc({ adoptId: "vpc-1" }), "adoptId"],
  ["VpcPeering: vpcId not numeric", peering({ vpcId: "main" }), "vpcId"],
  ["VpcPeering: empty peer account", peering({ peerAccountId: "" }), "peerAccountId"],
  ["VpcPeering: peer account of 257 characters", peering({ peerAccountId: "a".repeat(257) }), "peerAccountId"],
  ["VpcPeering: empty peer region", peering({ peerRegionCode: "" }), "peerRegionCode"],
  ["VpcPeering: empty peer VPC id", peering({ peerVpcId: "" }), "peerVpcId"],
  ["VpcPeering: project id in capitals", peering({ projectId: "ABCDE12345" }), "projectId"],
  ["VpcPeering: adoptId not numeric", peering({ adoptId: "pcx-1" }), "adoptId"],
  ["Service: empty name", service({ name: "" }), "name"],
  ["Service: unknown type", service({ serviceType: "NOSQL" }), "serviceType"],
  ["Service: unknown region", service({ regionCode: "xx-1" }), "regionCode"],
  ["Service: cpu that no plan has", service({ cpuMillis: 3000, memoryGbs: 12 }), ["cpuMillis", "memoryGbs"]],
  ["Service: cpu and memory not a pair", service({ cpuMillis: 1000, memoryGbs: 8 }), "memoryGbs"],
  ["Service: cpu without memory", service({ cpuMillis: 1000 }), "memoryGbs"],
  ["Service: three HA replicas", service({ haReplicas: { replicaCount: 3 } }), "haReplicas.replicaCount"],
  [
    "Service: more sync replicas than replicas",
    service({ haReplicas: { replicaCount: 1, syncReplicaCount: 2 } }),
    "haReplicas.syncReplicaCount",
  ],
  ["Service: unknown environment", service({ environment: "STAGING" }), "environment"],
  ["Service: pooler not a boolean", service({ connectionPooler: "yes" }), "connectionPooler"],
  ["Service: vpcId not numeric", service({ vpcId: "vpc-1" }), "vpcId"],
  // A secret is named in the reason only (property ""): Pulumi prints the value of a property a failure names.
  ["Service: password too short", service({ password: "short" }), ""],
  ["Service: password too long", service({ password: long }), ""],
  ["Service: paused not a boolean", service({ paused: "no" }), "paused"],
  ["Service: fork of a malformed service id", service({ forkFrom: { serviceId: "abc", strategy: "NOW" } }), "forkFrom.serviceId"],
  ["Service: PITR fork without targetTime", service({ forkFrom: { serviceId: SID, strategy: "PITR" } }), "forkFrom.targetTime"],
  ["Service: unknown fork strategy", service({ forkFrom: { serviceId: SID, strategy: "LATER" } }), "forkFrom.strategy"],
  ["Service: adoptId malformed", service({ adoptId: "UPPER" }), "adoptId"],
  ["Service: unknown timeouts key", service({ timeouts: { forever: "1h" } }), "timeouts"],
  ["ReadReplicaSet: malformed serviceId", replicas({ serviceId: "bad" }), "serviceId"],
  ["ReadReplicaSet: zero nodes", replicas({ nodes: 0 }), "nodes"],
  ["ReadReplicaSet: eleven nodes", replicas({ nodes: 11 }), "nodes"],
  ["ReadReplicaSet: fractional nodes", replicas({ nodes: 1.5 }), "nodes"],
  ["ReadReplicaSet: shared plan", replicas({ cpuMillis: "shared", memoryGbs: "shared" }), ["cpuMillis", "memoryGbs"]],
  ["ReadReplicaSet: cpu and memory not a pair", replicas({ cpuMillis: 1000, memoryGbs: 2 }), "memoryGbs"],
  ["ReadReplicaSet: unknown environment", replicas({ environment: "QA" }), "environment"],
  ["ReadReplicaSet: pooler not a boolean", replicas({ connectionPooler: 1 }), "connectionPooler"],
  ["ReadReplicaSet: name of 129 characters", replicas({ name: long }), "name"],
  ["ReadReplicaSet: delete timeout negative", replicas({ timeouts: { delete: -5 } }), "timeouts.delete"],
];

/** A program declaring one resource of `kind` with valid arguments but `args`. */
const programs: Record<string, (a: Loose) => () => void> = { Vpc: vpc, VpcPeering: peering, Service: service, ReadReplicaSet: replicas };

/**
 * [kind, input, a value of another type than the input takes, the type it takes], for every
 * input of every resource: the reason names the type expected and the type given, and not
 * the values allowed.
 */
const wrongTypes: Array<[string, string, unknown, string]> = [
  ["Vpc", "name", 5, "a string"],
  ["Vpc", "cidr", 10, "a string"],
  ["Vpc", "regionCode", 1, "a string"],
  ["Vpc", "projectId", 1234567890, "a string"],
  ["Vpc", "timeouts", "30m", "an object"],
  ["Vpc", "adoptId", 42, "a string"],
  ["Vpc", "settings", "https://api.example/public/api/v1", "an object"],
  ["VpcPeering", "vpcId", 42, "a string"],
  ["VpcPeering", "peerAccountId", 123456789012, "a string"],
  ["VpcPeering", "peerRegionCode", true, "a string"],
  ["VpcPeering", "peerVpcId", ["vpc-1"], "a string"],
  ["VpcPeering", "projectId", false, "a string"],
  ["VpcPeering", "timeouts", 600, "an object"],
  ["VpcPeering", "adoptId", 7, "a string"],
  ["VpcPeering", "settings", true, "an object"],
  ["Service", "name", true, "a string"],
  ["Service", "serviceType", 1, "a string"],
  ["Service", "regionCode", ["us-east-1"], "a string"],
  ["Service", "forkFrom", "abcde12345", "an object"],
  ["Service", "cpuMillis", "1000", 'a number (or "shared")'],
  ["Service", "memoryGbs", "4", 'a number (or "shared")'],
  ["Service", "haReplicas", 2, "an object"],
  ["Service", "environment", 0, "a string"],
  ["Service", "connectionPooler", "true", "a boolean"],
  ["Service", "vpcId", 1234, "a string"],
  ["Service", "password", 12345678, "a string"],
  ["Service", "paused", "no", "a boolean"],
  ["Service", "projectId", { id: "p" }, "a string"],
  ["Service", "adoptId", 1, "a string"],
  ["Service", "timeouts", true, "an object"],
  ["Service", "settings", 1, "an object"],
  ["ReadReplicaSet", "serviceId", 1, "a string"],
  ["ReadReplicaSet", "name", 3, "a string"],
  ["ReadReplicaSet", "nodes", "2", "a number"],
  ["ReadReplicaSet", "cpuMillis", "500", "a number"],
  ["ReadReplicaSet", "memoryGbs", "2", "a number"],
  ["ReadReplicaSet", "environment", true, "a string"],
  ["ReadReplicaSet", "connectionPooler", 1, "a boolean"],
  ["ReadReplicaSet", "password", true, "a string"],
  ["ReadReplicaSet", "projectId", 10, "a string"],
  ["ReadReplicaSet", "adoptId", 5, "a string"],
  ["ReadReplicaSet", "timeouts", "1h", "an object"],
  ["ReadReplicaSet", "settings", ["k"], "an object"],
];

/** The type of a value as the reasons name it. */
function typeName(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

describe("bad inputs", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("covers at least 30 cases over the four resources", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    for (const kind of ["Vpc:", "VpcPeering:", "Service:", "ReadReplicaSet:"]) {
      expect(cases.filter(([what]) => what.startsWith(kind)).length).toBeGreaterThanOrEqual(5);
    }
  });

  it("gives a value of the wrong type to every input of every resource", () => {
    const inputs = RESOURCES.flatMap((r) => Object.keys(specsOf(r).inputs).map((k) => `${r.definition.schema.kind}.${k}`));
    expect(wrongTypes.map(([kind, property]) => `${kind}.${property}`).sort()).toEqual(inputs.sort());
  });

  it.each(wrongTypes)(
    "%s.%s given %j: a check failure saying it expected %s, not the values allowed",
    async (kind, property, value, type) => {
      await cloud.clearRequests();
      const r = await cloud.stack.up(programs[kind]({ [property]: value }));
      const secret = property === "password" || property === "settings";
      const shown = secret ? "[secret]" : JSON.stringify(value);
      expect(r.checkFailures).toEqual([
        { name: "r", property: secret ? "" : property, reason: `${property} is ${shown}: expected ${type}, not ${typeName(value)}` },
      ]);
      expect(await cloud.requests()).toEqual([]);
    },
  );

  it("tells a nested value of the wrong type its type too", async () => {
    const r = await cloud.stack.up(
      service({ haReplicas: { replicaCount: "2" }, forkFrom: { serviceId: SID, strategy: 1 }, timeouts: { create: true } }),
    );
    expect(r.checkFailures.map((f) => f.reason).sort()).toEqual([
      "forkFrom.strategy is 1: expected a string, not a number",
      'haReplicas.replicaCount is "2": expected a number, not a string',
      'timeouts.create is true: expected a number of seconds or a string such as "30m", not a boolean',
    ]);
  });

  it.each(cases)("%s: a check failure naming the property, nothing sent", async (_what, program, property) => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(program);
    expect(r.checkFailures.map((f) => f.property).sort()).toEqual([property].flat());
    for (const f of r.checkFailures) expect(f.reason).toMatch(/expected|allowed|needs/);
    expect(await cloud.requests()).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });
});
