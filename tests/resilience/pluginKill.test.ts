/**
 * The plugin process killed while a create waits. The harness (like the engine, which
 * records a pending operation) keeps nothing for the killed create; the provider's journal
 * of creates in flight (provider/framework/journal.ts) lets the next `up` take over the service
 * the cloud made instead of making a second one.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, until } from "../../harness";
import { startCloud, type Cloud, journalEntries } from "../../harness/cloud";
import { holdCreateAnswer } from "./support/interrupted";

const program = (name: string) => () => {
  const db = new clouddb.Service("db", { name, cpuMillis: 1000, memoryGbs: 4 });
  return { id: db.serviceId, password: db.password };
};

describe("plugin killed in the middle of a create", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // create: 2 s x 0.5 QUEUED + 5 s x 0.5 CONFIGURING = 3.5 s to kill the plugin in
    cloud = await startCloud({ clockScale: 0.5, host: "plugin" });
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("while it waits for READY: the next up takes the service over, no second one", async () => {
    const running = cloud.stack.up(program("killed-while-waiting"));
    const made = await until("the service", async () =>
      (await cloud.api.perform("listServices")).items.find((s) => s.name === "killed-while-waiting"),
    );
    // The answer has reached the plugin once its journal entry holds the id (written before the
    // wait begins; a GET in the log after the POST may be this test's own list).
    await until("the id in the journal", async () =>
      journalEntries(cloud.journalDir).some((f) => fs.readFileSync(path.join(cloud.journalDir, f), "utf8").includes(made.service_id))
        ? true
        : undefined,
    );
    await cloud.stack.plugin.kill();
    const first = await running;
    expect(first.errors).toHaveLength(1);
    expect(cloud.stack.resources()).toEqual([]);

    await cloud.clearRequests();
    const second = expectNoErrors(await cloud.stack.up(program("killed-while-waiting")));
    expect(second.steps.map((s) => s.op)).toEqual(["create"]);
    const live = (await cloud.api.perform("listServices")).items.filter((s) => s.name === "killed-while-waiting");
    expect(live.map((s) => s.service_id)).toEqual([made.service_id]);
    expect(cloud.stack.resource("db").id).toBe(made.service_id);
    expect(live[0].status).toBe("READY");
    const log = (await cloud.requests())
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path.replace(/.*\/services/, "/services")}`);
    // No create; the lost initial password is replaced by a new one the stack knows.
    expect(log).toEqual([`POST /services/${made.service_id}/updatePassword`]);
    expect(String(second.outputs.password).length).toBeGreaterThanOrEqual(8);
    expect(cloud.stack.pluginStderr()).toContain(
      `service ${made.service_id} ("killed-while-waiting") was made by an earlier create that did not finish`,
    );
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("before the create was answered: with a name of its own, the next up asks for it again and takes the service over", async () => {
    const own = () => {
      const db = new clouddb.Service("db", { cpuMillis: 1000, memoryGbs: 4 });
      return { id: db.serviceId, name: db.name };
    };
    await cloud.clearRequests();
    const carriedOut = await holdCreateAnswer(cloud.controls, /\/services$/);
    const running = cloud.stack.up(own);
    await until("the create request", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
    await carriedOut(); // the POST is carried out, its answer held back
    await cloud.stack.plugin.kill();
    const first = await running;
    expect(first.errors).toHaveLength(1);
    await cloud.control("DELETE", "/faults");
    const made = await until("the service", async () => (await cloud.api.perform("listServices")).items[0]);

    const r = expectNoErrors(await cloud.stack.up(own));
    expect(r.outputs.name).toBe(made.name);
    const live = (await cloud.api.perform("listServices")).items;
    expect(live.map((s) => s.service_id)).toEqual([made.service_id]);
    expect(cloud.stack.resource("db").id).toBe(made.service_id);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("does not take over a same-named service it did not make (a second program's service is created)", async () => {
    const other = await cloud.api.perform("createService", { body: { name: "shared-name", cpu_millis: "1000", memory_gbs: "4" } });
    expectNoErrors(await cloud.stack.up(program("shared-name")));
    expect(cloud.stack.resource("db").id).not.toBe(other.service_id);
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "shared-name")).toHaveLength(2);
    expectNoErrors(await cloud.stack.destroy());
    await cloud.api.perform("deleteService", { service: other.service_id });
  });
});
