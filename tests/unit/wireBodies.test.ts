/**
 * The request bodies are the definitions' (framework/requestBodies.ts): each kind's create (and a
 * service's fork and update actions) sends, field by field, what its inputs' `wire` says,
 * and nothing an operation typed by hand. In process: each kind's core against the emulator
 * started in this process, with the client's `perform` watched for what it sends.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { API, type Operation } from "../../contract";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import { coreProvider } from "../../provider/framework/core";
import { optionalInput, type InputSpec, type InputSpecs } from "../../provider/framework/schema";
import { wiredOperations, type BodyOperation } from "../../provider/framework/requestBodies";
import { RESOURCES } from "../../provider/resources/registry";
import { serviceSchema } from "../../provider/resources/service/definition";
import { vpcDefinition, vpcSchema } from "../../provider/resources/vpc/definition";

let emu: RunningEmulator;
let journal: string;
const cores = new Map(RESOURCES.map((r) => [r.definition.schema.kind, coreProvider(r.definition)]));
const sent: Array<{ op: Operation; body: unknown }> = [];

/** The owner of a resource of `kind` named `name`: each create its own journal entry. */
const ownerOf = (kind: string, name: unknown) => `wire/test/clouddb:index:${kind}/${String(name)}`;

/** Creates a resource of `kind` through its core; returns its id and outputs. */
async function create(kind: string, news: Record<string, unknown>) {
  const owner = ownerOf(kind, news.name);
  return cores.get(kind)!.create({ news: { projectId: emu.projectId, ...news }, owner, preview: false });
}

// Several creates against the emulator each: seconds on a loaded machine.
jest.setTimeout(60_000);

/** The body of the one request of `op` sent since the test began, as it goes on the wire (JSON). */
function bodyOf(op: Operation): unknown {
  const bodies = sent.filter((s) => s.op === op).map((s) => s.body);
  expect(bodies).toHaveLength(1);
  return JSON.parse(JSON.stringify(bodies[0])) as unknown;
}

beforeAll(async () => {
  journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-wire-"));
  process.env.CLOUDDB_JOURNAL_DIR = journal;
  emu = await startEmulator({ port: 0, clockScale: 0 });
  const config: Record<string, string> = { "clouddb:apiUrl": emu.baseUrl, "clouddb:apiKey": emu.pat, "clouddb:projectId": emu.projectId };
  for (const core of cores.values()) await core.configure({ get: (key: string) => config[key] } as unknown as ConfigureRequest["config"]);
  const perform = ClouddbClient.prototype.perform;
  jest.spyOn(ClouddbClient.prototype, "perform").mockImplementation(function (this: ClouddbClient, op, ...args) {
    sent.push({ op, body: (args[0] as { body?: unknown } | undefined)?.body });
    return perform.call(this, op, ...args);
  });
});

afterAll(async () => {
  jest.restoreAllMocks();
  await emu.close();
  fs.rmSync(journal, { recursive: true, force: true });
});

beforeEach(() => {
  sent.length = 0;
});

describe("the request bodies", () => {
  it("name only fields of the contract's request of each operation", () => {
    for (const r of RESOURCES) {
      const wired = wiredOperations(r.definition.schema);
      // Every kind's create takes some of its inputs.
      expect([...wired.keys()].filter((op) => API[op].retry === "create")).not.toEqual([]);
      for (const [op, properties] of wired) {
        const fields = Object.keys((API[op] as { request: z.ZodObject }).request.shape);
        for (const property of properties) {
          const wire = (r.definition.schema.inputs as InputSpecs)[property].wire![op];
          if (typeof wire === "string") expect({ op, property, field: fields.includes(wire) }).toEqual({ op, property, field: true });
        }
      }
    }
  });

  it("of each kind's create are its inputs under their wire names, defaults filled in", async () => {
    const vpc = await create("Vpc", { name: "net", cidr: "10.7.0.0/16", regionCode: "us-east-1" });
    expect(bodyOf("createVpc")).toEqual({ name: "net", cidr: "10.7.0.0/16", region_code: "us-east-1" });

    const peer = { peerAccountId: "123456789012", peerRegionCode: "us-west-2", peerVpcId: "vpc-0abc" };
    sent.length = 0;
    await create("VpcPeering", { vpcId: vpc.id, ...peer });
    expect(bodyOf("createPeering")).toEqual({ peer_account_id: "123456789012", peer_region_code: "us-west-2", peer_vpc_id: "vpc-0abc" });

    sent.length = 0;
    const db = await create("Service", { name: "db", cpuMillis: 1000, memoryGbs: 4, environment: "PROD" });
    expect(bodyOf("createService")).toEqual({
      name: "db",
      service_type: "TIMESERIES",
      region_code: "us-east-1",
      cpu_millis: "1000",
      memory_gbs: "4",
      replica_count: 0,
      environment_tag: "PROD",
    });

    sent.length = 0;
    await create("ReadReplicaSet", { serviceId: db.id, name: "reads", nodes: 2, cpuMillis: 1000, memoryGbs: 4, environment: "PROD" });
    expect(bodyOf("createReplicaSet")).toEqual({ name: "reads", nodes: 2, cpu_millis: 1000, memory_gbs: 4 });

    // A fork sends only what the program gave: the rest is its source's.
    sent.length = 0;
    await create("Service", { name: "copy", forkFrom: { serviceId: db.id, strategy: "LAST_SNAPSHOT" }, memoryGbs: 4, cpuMillis: 1000 });
    expect(bodyOf("forkService")).toEqual({ name: "copy", fork_strategy: "LAST_SNAPSHOT", cpu_millis: "1000", memory_gbs: "4" });
  });

  it("of the update actions are the wanted inputs under their wire names", async () => {
    const db = await create("Service", { name: "acts" });
    sent.length = 0;
    const core = cores.get("Service")!;
    const olds = { ...db.outs, projectId: emu.projectId };
    const news = {
      name: "acts",
      projectId: emu.projectId,
      cpuMillis: 1000,
      memoryGbs: 4,
      haReplicas: { replicaCount: 1 },
      environment: "PROD",
    };
    await core.update({ id: db.id, olds, news, owner: ownerOf("Service", "acts"), preview: false });
    expect(bodyOf("resizeService")).toEqual({ cpu_millis: "1000", memory_gbs: "4" });
    expect(bodyOf("setServiceHA")).toEqual({ replica_count: 1, sync_replica_count: 0 });
    expect(bodyOf("setServiceEnvironment")).toEqual({ environment: "PROD" });
  });

  it("take an input added to a definition with a wire name, with no operation edited", async () => {
    const inputs = vpcSchema.inputs as unknown as Record<string, InputSpec>;
    const wire = { createVpc: "description" } as unknown as InputSpec["wire"];
    inputs.description = optionalInput(z.string(), { change: "replace", doc: "A throwaway input.", wire });
    try {
      await create("Vpc", { name: "described", cidr: "10.8.0.0/16", regionCode: "us-east-1", description: "lab" });
      expect(bodyOf("createVpc")).toEqual({ name: "described", cidr: "10.8.0.0/16", region_code: "us-east-1", description: "lab" });
    } finally {
      delete inputs.description;
    }
    expect(vpcDefinition.schema.inputs).not.toHaveProperty("description");
  });

  it("leave out every input no operation takes (a replica set's password, a service's pooler)", () => {
    const wired = (schema: { inputs: object }) => new Set([...wiredOperations(schema as { inputs: InputSpecs }).values()].flat());
    expect(wired(serviceSchema).has("connectionPooler")).toBe(false);
    expect(wired(serviceSchema).has("password")).toBe(true);
    const replicaSet = RESOURCES.find((r) => r.module === "readReplicaSet")!.definition.schema;
    expect(wired(replicaSet).has("password")).toBe(false);
    const ops: BodyOperation[] = [...wiredOperations(serviceSchema).keys()];
    expect(ops.sort()).toEqual([
      "attachServiceToVpc",
      "createService",
      "forkService",
      "resizeService",
      "setServiceEnvironment",
      "setServiceHA",
      "updateServicePassword",
    ]);
  });
});
