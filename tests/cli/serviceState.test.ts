/**
 * What the checkpoint holds for a Service of the dynamic path after `pulumi up` (issue 44,
 * item 2: only what a user or a later operation needs, the engine writing the checkpoint after
 * every step): the serialized provider as one `require` (inputs and outputs both hold it: the
 * dynamic-provider host loads it from the inputs for check, diff, create and update, from the
 * outputs for read and delete), the program's line as where the resource is declared (no frame
 * of this package's constructors; a program's own subclass kept, as Pulumi keeps any class), and what later operations read (`__owner`, `__adopted`,
 * `__inputs`). What the program reads of the Service is unchanged, and a refresh and a preview
 * after the `up` find nothing to change. A TypeScript project on disk, run by the real CLI as
 * a user runs it, against the emulator.
 */
import { describeWithCli } from "../../harness/cli/tools";
import { useDeployedProject } from "./support/typescriptProject";

const PROGRAM = `import * as clouddb from "pulumi-clouddb";

const db = new clouddb.Service("db", { name: "orders", cpuMillis: 500, memoryGbs: 2 });
class OrdersDb extends clouddb.Service {}
new OrdersDb("sub", { name: "orders-sub", cpuMillis: 500, memoryGbs: 2 });
export const serviceId = db.serviceId;
export const host = db.host;
export const port = db.port;
export const password = db.password;
export const connectionString = db.connectionString;
`;

/** A resource as `pulumi stack export` shows it. */
interface Exported {
  urn: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  sourcePosition?: string;
  stackTrace?: { sourcePosition?: string }[];
}

describeWithCli("what the checkpoint holds for a dynamic Service after pulumi up", (tools) => {
  const deployed = useDeployedProject(tools, "state", PROGRAM);
  let db: Exported;
  let sub: Exported;
  beforeAll(async () => {
    const state = JSON.parse(await deployed().project.exportState()) as { deployment: { resources: Exported[] } };
    db = state.deployment.resources.find((r) => r.urn.endsWith("::db"))!;
    sub = state.deployment.resources.find((r) => r.urn.endsWith("::sub"))!;
  });

  it("holds the serialized provider as one require, in the inputs and the outputs", () => {
    const text = 'exports.handler=()=>require("pulumi-clouddb/provider/service").provider';
    expect(db.inputs.__provider).toBe(text);
    expect(db.outputs.__provider).toBe(text);
  });

  it("records the program's line as where the Service is declared, and no frame of this package's constructors", () => {
    expect(db.sourcePosition).toBe("project:///index.ts#3,12");
    expect(db.stackTrace?.[0]).toEqual({ sourcePosition: "project:///index.ts#3,12" });
    const frames = (db.stackTrace ?? []).map((f) => f.sourcePosition ?? "");
    expect(frames.filter((f) => /\/sdk\/(construct|service)\.[jt]s#/.test(f))).toEqual([]);
  });

  it("keeps a program's own subclass of Service, as Pulumi keeps any class: its line first, then the program's call", () => {
    expect(sub.sourcePosition).toBe("project:///index.ts#4,1");
    const frames = (sub.stackTrace ?? []).map((f) => f.sourcePosition ?? "");
    expect(frames.slice(0, 2)).toEqual(["project:///index.ts#4,1", "project:///index.ts#5,1"]);
    expect(frames.filter((f) => /\/sdk\/(construct|service)\.[jt]s#/.test(f))).toEqual([]);
  });

  it("keeps what later operations read: the owner, whether it was adopted, the inputs the program gave", () => {
    expect(
      Object.keys(db.inputs)
        .filter((k) => k.startsWith("__"))
        .sort(),
    ).toEqual(["__owner", "__provider"]);
    expect(db.inputs.__owner).toBe("state/test/clouddb.Service/db");
    expect(
      Object.keys(db.outputs)
        .filter((k) => k.startsWith("__"))
        .sort(),
    ).toEqual(["__adopted", "__inputs", "__provider"]);
    expect(db.outputs.__adopted).toBe(false);
    expect(db.outputs.__inputs).toEqual(["cpuMillis", "memoryGbs", "name"]);
    // The two secrets the Service has are ciphertexts.
    expect(db.outputs.password).toMatchObject({ ciphertext: expect.any(String) });
    expect(db.outputs.connectionString).toMatchObject({ ciphertext: expect.any(String) });
  });

  it("gives the program what it reads of the Service, and a refresh and a preview then change nothing", async () => {
    const { project } = deployed();
    const out = await project.expect(["stack", "output", "--json", "--show-secrets"]);
    const o = JSON.parse(out.stdout) as Record<string, string | number>;
    expect(o.serviceId).toBe(db.id);
    expect(o.port).toBe(5432);
    expect(String(o.password).length).toBeGreaterThan(0);
    const encoded = encodeURIComponent(String(o.password));
    expect(o.connectionString).toBe(`postgresql://tsdbadmin:${encoded}@${String(o.host)}:5432/tsdb?sslmode=require`);
    const refresh = await project.expect(["refresh", "--yes", "--skip-preview"]);
    expect(refresh.stdout).not.toMatch(/clouddb:Service db (updated|deleted)/);
    const preview = await project.expect(["preview", "--expect-no-changes"]);
    expect(preview.code).toBe(0);
  });
});
