/**
 * Each output declares the wire field it is read from, with the contract's rule of when an
 * answer shows it readably (framework/outputs.ts); what a read checks, what a warning names
 * which recorded values `diff` judges and what an adoption compares are derived from those declarations alone, for the
 * shipped kinds and for a kind defined outside the product (tests/fifthKind/lan.ts).
 */
import { z } from "zod";
import { SERVICE_DEFAULTS } from "../../contract/defaults";
import { readableRegion } from "../../contract/readable";
import type { Vpc } from "../../provider/client";
import { assertAdoptable } from "../../provider/framework/adoption";
import { fixedProperties, readableRules, recordedFields, shownFields, showsReadably } from "../../provider/framework/outputs";
import { desiredOf, outputsFrom, outputsReadFrom, type OutputSpecs } from "../../provider/framework/schema";
import { keepingRecorded } from "../../provider/framework/unreadable";
import { RESOURCES } from "../../provider/resources/registry";
import { serviceOutputs, serviceSchema } from "../../provider/resources/service/definition";
import { vpcSchema } from "../../provider/resources/vpc/definition";
import { LAN, lanSchema } from "../fifthKind/lan";
import { mutated, serviceKind } from "./liveKinds";

/** Every kind: the shipped ones and the test's fifth. */
const KINDS = [...RESOURCES, LAN].map((r) => r.definition.schema);

describe("the fields outputs are read from", () => {
  let warnings: string[] = [];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")));
  });
  afterEach(() => jest.restoreAllMocks());

  it.each(KINDS.map((s) => [s.kind, s] as const))(
    "%s: every output that declares a field is checked under it, and no other",
    (_, schema) => {
      const outputs: OutputSpecs = schema.outputs;
      const declared = Object.entries(outputs).flatMap(([key, spec]) => (spec.read === undefined ? [] : [[key, spec.read.field] as const]));
      const derived = shownFields(schema).flatMap((f) => f.outputs.map((o) => [o, f.field] as const));
      expect(declared.length).toBeGreaterThan(0);
      expect(new Map(derived)).toEqual(new Map(declared));
      expect(derived).toHaveLength(declared.length);
    },
  );

  it("a kind outside the product keeps what its answer does not show readably, from its outputs' declarations alone", () => {
    const answer: Vpc = { id: "41", name: "lan", cidr: "10.40.0.0/16", region_code: "us-east-1" };
    const recorded = outputsFrom(lanSchema, { live: answer, projectId: "proj000001" });
    const odd: Vpc = { ...answer, region_code: " " };
    const read = keepingRecorded("network 41", odd, outputsFrom(lanSchema, { live: odd, projectId: "proj000001" }), recorded, lanSchema);
    expect(read).toEqual(recorded);
    expect(warnings).toEqual([
      "warning: clouddb: network 41: the API's answer does not show `region_code` in a shape the provider can read; keeping regionCode as recorded (nothing is changed because of it)",
    ]);
  });

  it("outputs of one field and one rule are named under it once; a field read by two rules is judged by each", () => {
    const live = serviceKind.parse(serviceKind.answer)!;
    const recorded = serviceOutputs(live);
    const noResources = serviceKind.parse(mutated(serviceKind.answer, ["resources"], []))!;
    expect(keepingRecorded("service fields-1", noResources, serviceOutputs(noResources), recorded, serviceSchema)).toEqual(recorded);
    // A status of the table's spelling it does not know is carried; whether the service is paused is not read from it.
    const unknownStatus = serviceKind.parse({ ...serviceKind.answer, status: "HIBERNATING" })!;
    const read = keepingRecorded(
      "service fields-2",
      unknownStatus,
      serviceOutputs(unknownStatus),
      { ...recorded, paused: true },
      serviceSchema,
    );
    expect([read.status, read.paused]).toEqual(["HIBERNATING", true]);
    expect(warnings).toEqual([
      "warning: clouddb: service fields-1: the API's answer does not show `resources` in a shape the provider can read; keeping cpuMillis, memoryGbs, resources as recorded (nothing is changed because of it)",
      "warning: clouddb: service fields-2: the API's answer does not show `status` in a shape the provider can read; keeping paused as recorded (nothing is changed because of it)",
    ]);
  });

  it("a recorded value diff judges by its rule is one of a replacing input whose output records its field as it is", () => {
    expect(Object.fromEntries(KINDS.map((s) => [s.kind, Object.keys(readableRules(s))]))).toEqual({
      Vpc: ["cidr", "regionCode"],
      VpcPeering: ["peerAccountId", "peerRegionCode", "peerVpcId"],
      Service: ["name", "serviceType", "regionCode"],
      ReadReplicaSet: ["name"],
      Lan: ["cidr", "regionCode"],
    });
  });

  it("adopting compares each replacing input read from a field, by its rule; what the program does not ask for, not at all", () => {
    const vpc: Vpc = { id: "41", name: "other", cidr: "10.40.0.0/16", region_code: " " };
    const wanted = { name: "lan", cidr: "10.40.0.0/16", regionCode: "us-east-1" };
    expect(() => assertAdoptable("VPC 41", fixedProperties(vpcSchema, wanted, vpc))).toThrow(
      /^adoptId: the API's answer does not show VPC 41's regionCode in a shape the provider can read \(" "\)/,
    );
    expect(() => assertAdoptable("VPC 41", fixedProperties(vpcSchema, wanted, { ...vpc, region_code: "us-west-2" }))).toThrow(
      /^adoptId: VPC 41 has regionCode "us-west-2" but the program asks for "us-east-1"/,
    );
    const service = serviceKind.parse(serviceKind.answer)!;
    expect(fixedProperties(serviceSchema, desiredOf(serviceSchema, {}, {}), service)).toEqual([
      ["serviceType", SERVICE_DEFAULTS.serviceType, service.service_type, true],
      ["regionCode", SERVICE_DEFAULTS.regionCode, service.region_code, true],
    ]);
  });

  it("an action or check asks an output whether the answer shows its field readably, by the output's declared rule alone", () => {
    const vpc: Vpc = { id: "41", name: "lan", cidr: "10.40.0.0/16", region_code: "us-east-1" };
    // A rule of the field's value (`recorded("region_code", readableRegion, "")`).
    expect(showsReadably(vpcSchema, vpc, "regionCode")).toBe(true);
    expect([" ", "TIMESERIES", 7].map((odd) => showsReadably(vpcSchema, { ...vpc, region_code: odd } as Vpc, "regionCode"))).toEqual([
      false,
      false,
      false,
    ]);
    // Only that output's field: a blank name is not an unreadable region.
    expect(showsReadably(vpcSchema, { ...vpc, name: " " }, "regionCode")).toBe(true);
    expect(showsReadably(vpcSchema, { ...vpc, name: " " }, "name")).toBe(false);
    // A rule that needs more than the value (`shows`): whether a service is paused is read only from a status the table knows.
    const service = serviceKind.parse(serviceKind.answer)!;
    expect(showsReadably(serviceSchema, service, "paused")).toBe(true);
    expect(showsReadably(serviceSchema, { ...service, status: "HIBERNATING" }, "paused")).toBe(false);
    expect(showsReadably(serviceSchema, { ...service, status: "HIBERNATING" }, "status")).toBe(true);
    // An output not read from a field has nothing to show unreadably.
    expect(showsReadably(vpcSchema, { ...vpc, region_code: " " }, "vpcId")).toBe(true);
    // @ts-expect-error -- no such output of a VPC
    showsReadably(vpcSchema, vpc, "regon");
    // @ts-expect-error -- an output of another kind (a service's), not of a VPC
    showsReadably(vpcSchema, vpc, "serviceType");
  });

  it("a field is a wire name of the contract's answer, with a rule (checked by tsc)", () => {
    const output = outputsReadFrom<{ readonly live: Vpc }>();
    // @ts-expect-error -- no such field in the contract's VPC
    output(z.string(), { doc: "Region.", field: "regon_code", readable: readableRegion, from: (s) => s.live.region_code ?? "" });
    // @ts-expect-error -- a field without its rule
    output(z.string(), { doc: "Region.", field: "region_code", from: (s) => s.live.region_code ?? "" });
    const spec = output(z.string(), {
      doc: "Region.",
      field: "region_code",
      readable: readableRegion,
      from: (s) => s.live.region_code ?? "",
    });
    expect(spec.read?.field).toBe("region_code");
  });

  it("an output that records a field as it is names it once: its rule, and a from that reads it (checked by tsc)", () => {
    const output = outputsReadFrom<{ readonly live: Vpc }>();
    const recorded = recordedFields<Vpc>();
    // @ts-expect-error -- no such field in the contract's VPC
    recorded("regon_code", readableRegion, "");
    // @ts-expect-error -- a VPC's region is text, not a number
    output(z.string(), { doc: "Region.", ...recorded("region_code", readableRegion, 0) });
    // @ts-expect-error -- the contract's VPC may have no region: an output of text needs what to give then
    output(z.string(), { doc: "Region.", ...recorded("region_code", readableRegion) });
    const spec = output(z.string(), { doc: "Region.", ...recorded("region_code", readableRegion, "") });
    expect(spec.read).toMatchObject({ field: "region_code", readable: readableRegion });
    expect(spec.from({ live: { id: "7", region_code: "eu-west-1" } })).toBe("eu-west-1");
    expect(spec.from({ live: { id: "7" } })).toBe("");
    const status = recordedFields<{ id: string; status: string }>()("status", (v) => typeof v === "string");
    expect(status.from({ live: { id: "7", status: "READY" } })).toBe("READY");
  });
});
