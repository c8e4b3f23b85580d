/**
 * An answer's resource must belong to the project asked for: a service whose answer carries
 * another project's `project_id` (a gateway that mixes projects up, an id of another
 * project) is never adopted, changed (no password set) or recorded. Adopting it, refreshing
 * it and recovering a create from it each stop naming both projects and the id.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

const OTHER = "zz99other0";

describe("an answer that carries a resource of another project", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/rewrites");
    expectNoErrors(await cloud.stack.destroy());
    await cloud.controls.reset();
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** Every answer about services (`path`) shows `project_id` as another project's. */
  const foreign = (path: string) => cloud.controls.rewrite({ method: "GET", path, field: "project_id", value: OTHER, count: 1_000 });

  it("on adoption: stops naming both projects and the id, and sets no password on it", async () => {
    const theirs = await cloud.api.perform("createService", { body: { name: "adoptable" } });
    await cloud.api.waitForService(theirs.service_id, { until: ["READY"], timeoutMs: 15_000 });
    await foreign(`/services/${theirs.service_id}$`);
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { adoptId: theirs.service_id, password: "a-new-password" }));
    expect(r.errors).toHaveLength(1);
    for (const part of [theirs.service_id, OTHER, cloud.emulator.projectId]) expect(r.errors[0].message).toContain(part);
    expect(writes(await cloud.requests())).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });

  it("on refresh: fails naming both projects and the id, and records nothing of it (no replacement follows)", async () => {
    const program = () => void new clouddb.Service("db", {});
    expectNoErrors(await cloud.stack.up(program));
    const id = cloud.stack.resource("db").id;
    const before = cloud.stack.resource("db").outputs;
    await foreign("/services");
    const refreshed = await cloud.stack.refresh();
    expect(refreshed.errors).toHaveLength(1);
    for (const part of [id, OTHER, cloud.emulator.projectId]) expect(refreshed.errors[0].message).toContain(part);
    expect(cloud.stack.resource("db").outputs).toEqual(before);
    await cloud.control("DELETE", "/rewrites");
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ db: "same" });
  });

  it("in a create's answer: the service is recovered from this project's list, and state records this project", async () => {
    const program = () => void new clouddb.Service("db", {});
    await cloud.controls.rewrite({ method: "POST", path: "/services$", field: "project_id", value: OTHER });
    expectNoErrors(await cloud.stack.up(program));
    const db = cloud.stack.resource("db");
    expect(db.outputs.projectId).toBe(cloud.emulator.projectId);
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([db.id]);
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ db: "same" });
  });
});
