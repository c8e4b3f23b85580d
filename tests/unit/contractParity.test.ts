/**
 * Contract parity: `check` accepts exactly what the API accepts. Each value of the table goes
 * to a resource's `check` (in process, `defineResourceProvider(definition).check`) and, in
 * the request it belongs to (create, resize, setHA, fork, updatePassword, ...), to the
 * emulator over real HTTP; both must give the same verdict. A value `check` accepts and the
 * API refuses passes a preview and fails `up` with a 400; the reverse refuses a program the
 * API would take.
 *
 * The table holds values of each input's own type (a size is a number or `"shared"`, a name
 * a string) at each rule's edges. Refusals that depend on the cloud's state (a PITR time
 * outside the source's life, a VPC in another region) are not value rules and are not here.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { API, pathOf, type Operation } from "../../contract";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { defineResourceProvider } from "../../provider/framework/resourceProvider";
import { RESOURCES } from "../../provider/resources/registry";

type Kind = "Vpc" | "VpcPeering" | "Service" | "ReadReplicaSet";
type Loose = Record<string, unknown>;

/** What the API side of a row needs made first: a READY service, a VPC. */
interface Fixtures {
  readonly serviceId: string;
  readonly vpcId: string;
  /** A moment within the source service's life, for PITR forks (whole seconds, UTC). */
  readonly pitrMoment: Date;
}

/** The request a value belongs to: an operation of the description, its path parameters and body. */
interface Sent {
  op: Operation;
  params: Record<string, string>;
  body: Loose;
}

/** One value: the resource inputs `check` sees, and the request the API sees. */
interface Row {
  rule: string;
  value: unknown;
  kind: Kind;
  inputs: Loose;
  send(f: Fixtures): Sent;
}

/** A well-formed service id for `check` (which never calls the API). */
const SID = "abcde12345";

const VPC = { name: "net", cidr: "10.0.0.0/16", regionCode: "us-east-1" };
const VPC_BODY = { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" };
const PEERING = { vpcId: "1234", peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-0abc" };
const PEERING_BODY = { peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0abc" };
const SET = { serviceId: SID, name: "reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 };
const SET_BODY = { name: "reads", nodes: 1, cpu_millis: 500, memory_gbs: 2 };

/** A value of a VPC's create. */
const vpc = (rule: string, value: unknown, inputs: Loose, body: Loose): Row => ({
  rule,
  value,
  kind: "Vpc",
  inputs: { ...VPC, ...inputs },
  send: () => ({ op: "createVpc", params: {}, body: { ...VPC_BODY, ...body } }),
});

/** A value of a peering's create, under the fixture VPC. */
const peering = (rule: string, value: unknown, inputs: Loose, body: Loose): Row => ({
  rule,
  value,
  kind: "VpcPeering",
  inputs: { ...PEERING, ...inputs },
  send: (f) => ({ op: "createPeering", params: { vpc: f.vpcId }, body: { ...PEERING_BODY, ...body } }),
});

/** A value of a service's create. */
const service = (rule: string, value: unknown, inputs: Loose, body: Loose): Row => ({
  rule,
  value,
  kind: "Service",
  inputs: { name: "db", ...inputs },
  send: () => ({ op: "createService", params: {}, body: { name: "db", ...body } }),
});

/** A value of an action on a READY service (`op`: resize, setHA, updatePassword, fork). */
const onService = (rule: string, value: unknown, inputs: Loose, op: Operation, body: Loose): Row => ({
  rule,
  value,
  kind: "Service",
  inputs: { name: "db", ...inputs },
  send: (f) => ({ op, params: { service: f.serviceId }, body }),
});

/** A value of a replica set's create, under a READY service. */
const replicaSet = (rule: string, value: unknown, inputs: Loose, body: Loose): Row => ({
  rule,
  value,
  kind: "ReadReplicaSet",
  inputs: { ...SET, ...inputs },
  send: (f) => ({ op: "createReplicaSet", params: { service: f.serviceId }, body: { ...SET_BODY, ...body } }),
});

/** A PITR fork of a READY service at a time `format` writes from the fixture's moment. */
const pitr = (rule: string, label: string, format: (d: Date) => string): Row => ({
  rule,
  value: label,
  kind: "Service",
  // check sees the same text: it is written from a fixed moment there (check cannot know the source's life).
  inputs: { name: "db", forkFrom: { serviceId: SID, strategy: "PITR", targetTime: format(new Date("2026-01-31T12:00:00Z")) } },
  send: (f) => ({
    op: "forkService",
    params: { service: f.serviceId },
    body: { fork_strategy: "PITR", target_time: format(f.pitrMoment), name: "f" },
  }),
});

const CIDRS = [
  "10.0.0.0/16",
  "10.0.0.0/28",
  "10.0.0.0/15",
  "10.0.0.0/29",
  "10.0.0.16/28",
  "10.0.0.8/28",
  "10.0.0.1/16",
  "10.1.0.0/16",
  "10.01.0.0/16",
  "010.0.0.0/16",
  "0.0.0.0/16",
  "255.255.255.240/28",
  "256.0.0.0/16",
  "10.0.0.0",
  "10.0.0.0/016",
  " 10.0.0.0/16",
];

const NAMES: Array<[string, string]> = [
  ["empty", ""],
  ["1 character", "a"],
  ["128 characters", "x".repeat(128)],
  ["129 characters", "x".repeat(129)],
  ["a space", " "],
  ["U+0000", "a\u0000b"],
  ["a tab", "a\tb"],
  ["U+001F", "a\u001fb"],
  ["U+007F", "a\u007fb"],
  ["U+0080", "a\u0080b"],
  ["U+0085", "a\u0085b"],
  ["U+009F", "a\u009fb"],
  ["U+00A0", "a\u00a0b"],
  ["U+2028", "a\u2028b"],
  ["64 emoji (128 UTF-16 units)", "😀".repeat(64)],
  ["128 emoji (256 UTF-16 units)", "😀".repeat(128)],
  ["129 emoji", "😀".repeat(129)],
  ["accents", "données-é"],
];

const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-southeast-2", "sa-east-1"];
const BAD_REGIONS = ["US-EAST-1", "mars-1", ""];

const SERVICE_PAIRS: Array<[number | string, number | string]> = [
  ["shared", "shared"],
  [500, 2],
  [1000, 4],
  [2000, 8],
  [4000, 16],
  [8000, 32],
  [16000, 64],
  [32000, 128],
];
const BAD_SERVICE_PAIRS: Array<[number | string, number | string]> = [
  [1000, 2],
  [999, 4],
  [1001, 4],
  [1000, 5],
  [32000, 64],
  [64000, 256],
  ["shared", 2],
  [500, "shared"],
  [0, 0],
  [1000.5, 4],
];
const BAD_SET_PAIRS: Array<[number | string, number | string]> = [
  ["shared", "shared"],
  [1000, 2],
  [501, 2],
  [32001, 128],
  [0, 0],
];

const text = (s: string) => s;
const rows: Row[] = [
  ...CIDRS.map((c) => vpc("cidr", c, { cidr: c }, { cidr: c })),
  ...NAMES.map(([what, n]) => vpc("name (VPC)", what, { name: n }, { name: n })),
  ...NAMES.map(([what, n]) => service("name (service)", what, { name: n }, { name: n })),
  ...NAMES.filter(([what]) => /empty|12[89] char|U\+0085|emoji/.test(what)).map(([what, n]) =>
    replicaSet("name (replica set)", what, { name: n }, { name: n }),
  ),
  ...[...REGIONS, ...BAD_REGIONS].map((r) => vpc("region (VPC)", r, { regionCode: r }, { region_code: r })),
  ...[...REGIONS, ...BAD_REGIONS].map((r) => service("region (service)", r, { regionCode: r }, { region_code: r })),
  ...[...REGIONS, ...BAD_REGIONS].map((r) => peering("region (peer)", r, { peerRegionCode: r }, { peer_region_code: r })),
  ...[...SERVICE_PAIRS, ...BAD_SERVICE_PAIRS].map(([cpu, mem]) =>
    service(
      "size (service create)",
      `${cpu}/${mem}`,
      { cpuMillis: cpu, memoryGbs: mem },
      { cpu_millis: String(cpu), memory_gbs: String(mem) },
    ),
  ),
  service("size (service create)", "cpu alone", { cpuMillis: 1000 }, { cpu_millis: "1000" }),
  service("size (service create)", "memory alone", { memoryGbs: 4 }, { memory_gbs: "4" }),
  ...[SERVICE_PAIRS[0], SERVICE_PAIRS[7], ...BAD_SERVICE_PAIRS.slice(0, 2)].map(([cpu, mem]) =>
    onService("size (service resize)", `${cpu}/${mem}`, { cpuMillis: cpu, memoryGbs: mem }, "resizeService", {
      cpu_millis: String(cpu),
      memory_gbs: String(mem),
    }),
  ),
  ...[...SERVICE_PAIRS.slice(1), ...BAD_SET_PAIRS].map(([cpu, mem]) =>
    replicaSet("size (replica set)", `${cpu}/${mem}`, { cpuMillis: cpu, memoryGbs: mem }, { cpu_millis: cpu, memory_gbs: mem }),
  ),
  ...[0, 1, 10, 11, -1, 1.5].map((n) => replicaSet("nodes", n, { nodes: n }, { nodes: n })),
  ...["DEV", "PROD", "dev", "STAGING", ""].map((e) => service("environment", e, { environment: e }, { environment_tag: e })),
  ...["TIMESERIES", "RELATIONAL", "VECTOR", "timeseries", "NOSQL"].map((t) =>
    service("service type", t, { serviceType: t }, { service_type: t }),
  ),
  ...[0, 1, 2, 3, -1, 1.5].map((n) => service("HA replica count", n, { haReplicas: { replicaCount: n } }, { replica_count: n })),
  ...[
    [2, 2],
    [2, 1],
    [1, 2],
    [0, 1],
    [2, 3],
  ].map(([r, s]) =>
    onService("HA sync replica count", `${r}/${s}`, { haReplicas: { replicaCount: r, syncReplicaCount: s } }, "setServiceHA", {
      replica_count: r,
      sync_replica_count: s,
    }),
  ),
  ...[
    ["7 characters", "x".repeat(7)],
    ["8 characters", "x".repeat(8)],
    ["128 characters", "x".repeat(128)],
    ["129 characters", "x".repeat(129)],
    ["empty", ""],
  ].map(([what, p]) => onService("password", what, { password: p }, "updateServicePassword", { password: p })),
  ...["LAST_SNAPSHOT", "NOW", "now", "LATER", "PITR"].map((s) =>
    onService("fork strategy", s, { forkFrom: { serviceId: SID, strategy: s } }, "forkService", { fork_strategy: s, name: "f" }),
  ),
  pitr("PITR time", "RFC 3339, Z", (d) => d.toISOString().replace(".000", "")),
  pitr("PITR time", "with milliseconds", (d) => d.toISOString()),
  pitr("PITR time", "offset +00:00", (d) => d.toISOString().replace(".000Z", "+00:00")),
  pitr("PITR time", "lower-case t and z", (d) => d.toISOString().replace(".000", "").replace("T", "t").replace("Z", "z")),
  pitr("PITR time", "no seconds", (d) => d.toISOString().slice(0, 16) + "Z"),
  pitr("PITR time", "space for T", (d) => d.toISOString().replace(".000", "").replace("T", " ")),
  pitr("PITR time", "no zone", (d) => d.toISOString().replace(".000Z", "")),
  pitr("PITR time", "date only", (d) => d.toISOString().slice(0, 10)),
  pitr("PITR time", "not a time", () => text("yesterday")),
  ...[
    ["empty", ""],
    ["1 character", "a"],
    ["128 characters", "a".repeat(128)],
    ["129 characters", "a".repeat(129)],
  ].flatMap(([what, v]) => [
    peering("peer account id", what, { peerAccountId: v }, { peer_account_id: v }),
    peering("peer VPC id", what, { peerVpcId: v }, { peer_vpc_id: v }),
  ]),
];

const providerOf = (kind: Kind) => defineResourceProvider(RESOURCES.find((r) => r.definition.schema.kind === kind)!.definition);

/** What `check` says of the row's inputs: accepted, or refused with the reasons. */
async function checkVerdict(row: Row): Promise<{ accepted: boolean; why: string }> {
  const failures = (await providerOf(row.kind).check({}, row.inputs)).failures ?? [];
  return { accepted: failures.length === 0, why: failures.map((f) => f.reason).join("; ") };
}

describe("contract parity: check and the API give every value the same verdict", () => {
  let emu: RunningEmulator;
  let fixtures: Fixtures;

  /** Sends the row's request over HTTP: accepted (2xx), or refused (400) with the details. */
  async function apiVerdict(row: Row): Promise<{ accepted: boolean; why: string }> {
    const { op, params, body } = row.send(fixtures);
    const res = await call(API[op].method, pathOf(op, { project: emu.projectId, ...params } as never), body);
    if (res.status !== 400 && (res.status < 200 || res.status > 299)) {
      throw new Error(`${op} answered ${res.status} ${JSON.stringify(res.body)}: the row's setup is wrong`);
    }
    return { accepted: res.status !== 400, why: JSON.stringify((res.body as Loose | undefined)?.details ?? "") };
  }

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${emu.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${emu.pat}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
  }

  beforeAll(async () => {
    // Clock scale 0: every transition is instant, so a new service is READY at once.
    emu = await startEmulator({ port: 0, clockScale: 0 });
    // A configuration that is all well: its problems would be `check` failures too.
    const config: Record<string, string> = { "clouddb:apiUrl": emu.baseUrl, "clouddb:apiKey": emu.pat, "clouddb:projectId": emu.projectId };
    await providerOf("Vpc").configure({ config: { get: (key: string) => config[key] } } as unknown as ConfigureRequest);
    const service = await call("POST", `/projects/${emu.projectId}/services`, { name: "source" });
    const made = await call("POST", `/projects/${emu.projectId}/vpcs`, VPC_BODY);
    if (service.status !== 202 || made.status !== 201) throw new Error(`fixtures answered ${service.status}, ${made.status}`);
    // A moment after the source was made, in whole seconds: wait until it has passed.
    const pitrMoment = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
    fixtures = { serviceId: (service.body as { service_id: string }).service_id, vpcId: (made.body as { id: string }).id, pitrMoment };
    await new Promise((resolve) => setTimeout(resolve, pitrMoment.getTime() - Date.now() + 50));
  });

  afterAll(async () => {
    await emu?.close();
  });

  /** The API's verdicts by rule, to show that each rule's values fall on both sides of its edge. */
  const seen = new Map<string, Set<boolean>>();

  it.each(rows.map((r) => [`${r.rule}: ${JSON.stringify(r.value)}`, r] as const))("%s", async (_name, row) => {
    const [fromCheck, fromApi] = [await checkVerdict(row), await apiVerdict(row)];
    seen.set(row.rule, (seen.get(row.rule) ?? new Set()).add(fromApi.accepted));
    expect({ check: fromCheck.accepted, api: fromApi.accepted, checkSays: fromCheck.why, apiSays: fromApi.why }).toEqual({
      check: fromApi.accepted,
      api: fromApi.accepted,
      checkSays: expect.any(String),
      apiSays: expect.any(String),
    });
  });

  it("holds at least 50 values, and the API accepts some and refuses some of every rule", () => {
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(seen.size).toBe(new Set(rows.map((r) => r.rule)).size);
    for (const [rule, verdicts] of seen) expect([rule, [...verdicts].sort()]).toEqual([rule, [false, true]]);
  });
});
