/**
 * Values never seen never drive a change (issue 40, item 1), on every field of every kind whose
 * value can drive a replacement or an update: each is given `""`, white space, every type it
 * does not have, and values of other fields and resources (a region where a service type
 * belongs, a CIDR where a region belongs, a service id where a VPC id belongs, a size pair no
 * plan has, a count out of range, a status in another kind's spelling). The outputs are those
 * recorded, a warning names the field, and no action is needed for a program that did not
 * change (contract/readable.ts, framework/unreadable.ts). And the rules themselves: every
 * value a request may carry reads; a recorded value its rule refuses replaces nothing.
 */
import {
  DEDICATED_SIZES,
  ENVIRONMENTS,
  knownStatuses,
  readableCidr,
  readableEnvironment,
  readableHaCounts,
  readableName,
  readableNodes,
  readableRegion,
  readableReplicaSetSize,
  readableServiceSize,
  readableServiceType,
  readableStatus,
  REGIONS,
  SERVICE_SIZES,
  SERVICE_TYPES,
} from "../../contract";
import { diffProperties, unreadablyRecorded } from "../../provider/framework/diff";
import { diffedProperties } from "../../provider/framework/schema";
import { readableRules } from "../../provider/framework/outputs";
import { keepingRecorded } from "../../provider/framework/unreadable";
import { serviceDefinition } from "../../provider/resources/service/definition";
import { vpcDefinition } from "../../provider/resources/vpc/definition";
import { mutated, peeringKind, replicaSetKind, serviceKind, vpcKind, type Kind } from "./liveKinds";

/** The kinds, as the table sees them (their answers' types differ). */
const [vpc, peering, service, replicaSet] = [vpcKind, peeringKind, serviceKind, replicaSetKind] as unknown as Kind<unknown>[];

/** A string of nothing but white space, or nothing. */
const BLANK = ["", " ", "  ", "\t", "\n", " \t "];
/** A value of every type a text field does not have. */
const NOT_TEXT = [7, 0, true, false, {}, [], ["x"], { value: "x" }];
/** A value of every type a number does not have (a decimal string is a number written so: readable). */
const NOT_NUMBER = [...BLANK, "abc", "1000 millicores", true, {}, [], [1000]];

const NAME = [...BLANK, ...NOT_TEXT, "x".repeat(129), "bad\u0001name", "tab\tname"];
const REGION = [
  ...BLANK,
  ...NOT_TEXT,
  "TIMESERIES",
  "PROD",
  "10.0.0.0/16",
  "abcdefghij",
  "123",
  "US-EAST-1",
  "us-east-1 ",
  " us-east-1",
  "us_east_1",
];
const STATUS_LOWER = [...BLANK, "ACTIVE", "READY", "Active", "active now", "pending-1"];
const STATUS_UPPER = [...BLANK, "active", "paused", "Ready", "READY NOW", "PAUSED-1"];
const ENVIRONMENT = [...BLANK, ...NOT_TEXT, "STAGING", "dev", "Prod", "us-east-1", "TIMESERIES", "PROD "];

/** Each field (a path of its answer) whose value can drive a replacement or an update, with what it must not read as a value. */
const NEIGHBOURS: ReadonlyArray<readonly [Kind<unknown>, string, readonly unknown[]]> = [
  [vpc, "name", NAME],
  [
    vpc,
    "cidr",
    [...BLANK, ...NOT_TEXT, "us-east-1", "123", "10.0.0.1/16", "10.0.0.0/8", "10.0.0.0/29", "10.0.0.0", "10.0.0.0/16 ", "010.0.0.0/16"],
  ],
  [vpc, "region_code", REGION],
  [peering, "peer_account_id", [...BLANK, ...NOT_TEXT, "x".repeat(129)]],
  [peering, "peer_region_code", REGION],
  [peering, "peer_vpc_id", [...BLANK, ...NOT_TEXT, "x".repeat(129)]],
  [peering, "status", STATUS_LOWER],
  [service, "name", NAME],
  [service, "service_type", [...BLANK, ...NOT_TEXT, "us-east-1", "PROD", "ANALYTICS", "timeseries", "TIMESERIES ", "active"]],
  [service, "region_code", REGION],
  [service, "status", STATUS_UPPER],
  [service, "resources.0.spec.cpu_millis", [...NOT_NUMBER, 3, 1001, 0, -1000, 2000, 1.5]],
  [service, "resources.0.spec.memory_gbs", [...NOT_NUMBER, 8, 0, 2, 4.5, -4]],
  [service, "ha_replicas.replica_count", [...NOT_NUMBER, 3, -1, 1.5]], // 0 below a sync count of 1: the paused answer below
  [service, "ha_replicas.sync_replica_count", [...NOT_NUMBER, 2, 3, -1, 0.5]],
  [service, "metadata.environment", ENVIRONMENT],
  [service, "vpcEndpoint.vpc_id", [...BLANK, true, {}, [], "abcdefghij", "10.0.0.0/16", "12a", -1, 1.5]],
  [service, "connection_pooler", [...BLANK, 7, true, false, "true", "enabled", []]],
  [replicaSet, "name", NAME],
  [replicaSet, "nodes", [...NOT_NUMBER, 0, 11, 1.5, -1, 1000]],
  [replicaSet, "cpu_millis", [...NOT_NUMBER, 3, 0, 1001, 4, 2000]],
  [replicaSet, "memory_gbs", [...NOT_NUMBER, 8, 0, 2, 1000]],
  [replicaSet, "metadata.environment", ENVIRONMENT],
  [replicaSet, "status", STATUS_LOWER],
  [replicaSet, "connection_pooler", [...BLANK, 7, true, "true", []]],
];

/** A service answer paused, HA 1/1: so that an unreadable status keeps `paused`, and a replica count of 0 is below the sync one. */
const pausedService: Kind<unknown> = {
  ...service,
  name: "Service (paused)",
  answer: { ...serviceKind.answer, status: "PAUSED", ha_replicas: { replica_count: 1, sync_replica_count: 1 } },
};

/** The path `p` (dots) of an answer, as segments. */
const segments = (p: string): (string | number)[] => p.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));

describe("a value no rule takes, on every field that can drive a change", () => {
  let warnings: string[] = [];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")));
  });
  afterEach(() => jest.restoreAllMocks());

  const cases = [...NEIGHBOURS, [pausedService, "status", STATUS_UPPER], [pausedService, "ha_replicas.replica_count", [0]]] as const;
  it.each(cases.map(([kind, path, values]) => [`${kind.name} ${path}`, kind, path, values] as const))(
    "%s: the outputs stay as recorded, a warning names the field, and no action is needed",
    (_, kind, path, values) => {
      const live = kind.parse(kind.answer)!;
      const recorded = kind.outputs(live);
      const field = path
        .replace(/\.0\./, ".")
        .replace(/\.spec\.(cpu_millis|memory_gbs)$/, "")
        .replace(/\.(replica_count|sync_replica_count)$/, "");
      for (const value of values) {
        const what = `${path} = ${JSON.stringify(value)}`;
        const odd = kind.parse(mutated(kind.answer, segments(path), value));
        // A field the client relies on (a status of another type) makes the answer unreadable as a whole: nothing is recorded.
        if (odd === undefined) {
          expect([what, path]).toEqual([what, expect.stringMatching(/status$/)]);
          continue;
        }
        warnings = [];
        // Named by the value: the same warning is said once per process.
        const read = keepingRecorded(`${kind.name} (${what})`, odd, kind.outputs(odd), recorded, kind.schema);
        expect([what, read]).toEqual([what, recorded]);
        expect([what, kind.needed(odd, recorded)]).toEqual([what, []]);
        const fieldShown = field === "vpcEndpoint.vpc_id" ? "vpcEndpoint" : field;
        expect([what, warnings.join("\n")]).toEqual([what, expect.stringContaining(`\`${fieldShown}\``)]);
      }
    },
  );

  it("warns once per process for the same answer (an update reads a resource more than once)", () => {
    const odd = vpcKind.parse(mutated(vpcKind.answer, ["region_code"], "  "))!;
    const recorded = vpcKind.outputs(vpcKind.parse(vpcKind.answer)!);
    keepingRecorded("VPC once-1", odd, vpcKind.outputs(odd), recorded, vpcKind.schema);
    keepingRecorded("VPC once-1", odd, vpcKind.outputs(odd), recorded, vpcKind.schema);
    expect(warnings).toEqual([
      "warning: clouddb: VPC once-1: the API's answer does not show `region_code` in a shape the provider can read; keeping regionCode as recorded (nothing is changed because of it)",
    ]);
  });

  it("with nothing recorded (a lookup, an import), shows the value as the API gave it, and says so", () => {
    const odd = vpcKind.parse(mutated(vpcKind.answer, ["cidr"], ""))!;
    const read = keepingRecorded("VPC lookup-1", odd, vpcKind.outputs(odd), {}, vpcKind.schema);
    expect(read).toMatchObject({ cidr: "" });
    expect(warnings).toEqual([
      "warning: clouddb: VPC lookup-1: the API's answer does not show `cidr` in a shape the provider can read; cidr as the API gave it (nothing is recorded to keep)",
    ]);
  });
});

describe("the rules of readable values", () => {
  it("read every value a request may carry, and every region of a region code's shape", () => {
    for (const r of [...REGIONS, "us-gov-west-1", "ap-northeast-3", "me-central-1"]) expect([r, readableRegion(r)]).toEqual([r, true]);
    for (const t of SERVICE_TYPES) expect(readableServiceType(t)).toBe(true);
    for (const e of ENVIRONMENTS) expect(readableEnvironment(e)).toBe(true);
    for (const p of SERVICE_SIZES) expect(readableServiceSize(p.cpuMillis, p.memoryGbs)).toBe(true);
    for (const p of DEDICATED_SIZES) expect(readableReplicaSetSize(p.cpuMillis, p.memoryGbs)).toBe(true);
    expect(readableReplicaSetSize(0, 0)).toBe(false); // a replica set has no shared plan
    for (const n of [1, 5, 10]) expect(readableNodes(n)).toBe(true);
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 2],
    ])
      expect(readableHaCounts(a, b)).toBe(true);
    expect(readableHaCounts(1, 2)).toBe(false);
    for (const n of ["db", " db", "a".repeat(128), "ünïcødé"]) expect(readableName(n)).toBe(true);
    for (const c of ["10.0.0.0/16", "192.168.16.0/20", "172.16.0.0/28"]) expect(readableCidr(c)).toBe(true);
    for (const kind of ["service", "replica set", "peering"] as const) {
      for (const s of knownStatuses(kind)) expect([kind, s, readableStatus(kind, s)]).toEqual([kind, s, true]);
    }
    expect([readableStatus("service", "HIBERNATING"), readableStatus("peering", "migrating")]).toEqual([true, true]); // the API's news: carried
  });
});

describe("a recorded value its rule refuses (state an earlier version wrote from an unreadable answer)", () => {
  const compare = (
    definition: typeof serviceDefinition | typeof vpcDefinition,
    recorded: Record<string, unknown>,
    desired: Record<string, unknown>,
  ) => {
    const keys = diffedProperties(definition.schema);
    const found = diffProperties(recorded, desired, keys);
    return { ...found, unread: unreadablyRecorded(recorded, found.changed, readableRules(definition.schema)) };
  };

  it("is no reason to replace: the change is an update, which records what the resource shows", () => {
    const recorded = { name: "db", serviceType: "TIMESERIES", regionCode: "", cpuMillis: 500, memoryGbs: 2, environment: "DEV" };
    const r = compare(serviceDefinition, recorded, { ...recorded, regionCode: "us-east-1" });
    expect([r.changes, r.replaces, r.unread]).toEqual([true, ["regionCode"], ["regionCode"]]);
    const vpc = compare(
      vpcDefinition,
      { name: "n", cidr: " ", regionCode: "us-east-1" },
      { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
    );
    expect(vpc.unread).toEqual(["cidr"]);
  });

  it("a readable recorded value that differs still replaces, as the program asks", () => {
    const recorded = { name: "db", serviceType: "TIMESERIES", regionCode: "us-west-2" };
    expect(compare(serviceDefinition, recorded, { ...recorded, regionCode: "us-east-1" }).unread).toEqual([]);
  });
});
