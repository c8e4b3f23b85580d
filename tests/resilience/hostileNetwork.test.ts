/**
 * An interrupted create is never made twice, past the values of the tests before it (issue
 * 29, item 8): recovery acts on proof only. A list that lags seconds behind when the next
 * `up` reads it, a journal entry dated in the future (this machine's clock was ahead), a VPC
 * renamed out of band before the next `up`, and two plugin processes of one stack reaching
 * the same create at once: each makes one resource at most, and where the provider cannot
 * tell, it stops saying what is known and what to do; a list that shows the made resource's name
 * in a shape no rule takes (blank, another type, too long) proves nothing either. Through the
 * real plugin host, the plugin killed while the create's answer is held back (the API acted;
 * the entry holds no id).
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, PluginHost, REPO_ROOT } from "../../harness";
import { providerText } from "../../sdk/trampoline";
import { journalEntries, stackConfig, startCloud, type Cloud } from "../../harness/cloud";
import { interruptedUp } from "./support/interrupted";

describe("an interrupted create on a hostile network", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    await cloud.controls.reset();
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
    expectNoErrors(await cloud.stack.destroy());
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** Runs `program` with the create matching `pathRe` held back, kills the plugin once the API has it, and waits until it was carried out. */
  const interrupt = async (program: () => void, pathRe: RegExp): Promise<void> => void (await interruptedUp(cloud, program, pathRe));

  const posts = async (pathRe: RegExp) => (await cloud.requests()).filter((r) => r.method === "POST" && pathRe.test(r.path)).length;

  it("a list lagging seconds behind: the next up makes no second service, and takes the one over once the list shows it", async () => {
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    await cloud.api.perform("listServices"); // the answer the lagging list gives
    await interrupt(program, /\/services$/);
    await cloud.controls.fault({ method: "GET", path: "/services$", lagMs: 30_000, count: 1_000 });
    const stopped = await cloud.stack.up(program);
    expect(stopped.errors.map((e) => e.message)).toEqual([expect.stringContaining("does not create another on a guess")]);
    await cloud.control("DELETE", "/faults");
    expect(await posts(/\/services$/)).toBe(1);
    const r = expectNoErrors(await cloud.stack.up(program));
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([cloud.stack.resource("db").id]);
    expect(r.outputs.name).toMatch(/^db-[0-9a-f]{7}$/);
  });

  it.each(["", "\t", 7, "x".repeat(129)].map((v) => [JSON.stringify(v).slice(0, 12), v] as const))(
    "the next up's list shows the interrupted create's service with a name no rule takes (%s): nothing is taken over on it and none made twice; once shown, it is taken over",
    async (_, value) => {
      const program = () => ({ name: new clouddb.Service("db", {}).name });
      await interrupt(program, /\/services$/);
      await cloud.controls.rewrite({ method: "GET", path: "/services$", field: "name", value, count: 1_000 });
      const stopped = await cloud.stack.up(program);
      expect(stopped.errors.map((e) => e.message)).toEqual([expect.stringContaining("does not create another on a guess")]);
      await cloud.control("DELETE", "/rewrites");
      expect(await posts(/\/services$/)).toBe(1);
      const r = expectNoErrors(await cloud.stack.up(program));
      expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([cloud.stack.resource("db").id]);
      expect(r.outputs.name).toMatch(/^db-[0-9a-f]{7}$/);
    },
  );

  it("a journal entry dated in the future: with a name the program chose, the service it may have made is named, never made twice", async () => {
    const program = () => void new clouddb.Service("db", { name: "future-dated" });
    await interrupt(program, /\/services$/);
    const [file] = journalEntries(cloud.journalDir).map((f) => path.join(cloud.journalDir, f));
    const entry = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...entry, startedAt: Date.now() + 2 * 24 * 3_600_000 }), { mode: 0o600 });
    const made = (await cloud.api.perform("listServices")).items.filter((s) => s.name === "future-dated");
    expect(made).toHaveLength(1);
    const r = await cloud.stack.up(program);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`adoptId: "${made[0].service_id}"`);
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "future-dated")).toHaveLength(1);
    await cloud.api.perform("deleteService", { service: made[0].service_id });
  });

  it("a VPC renamed out of band before the next up: no second VPC; the renamed one is named with its adoptId", async () => {
    const program = () => void new clouddb.Vpc("net", { cidr: "10.80.0.0/16", regionCode: "us-east-1" });
    await interrupt(program, /\/vpcs$/);
    const [made] = (await cloud.api.perform("listVpcs")).items;
    expect(made.name).toMatch(/^net-[0-9a-f]{7}$/);
    await cloud.api.perform("renameVpc", { vpc: made.id, body: { name: "renamed-by-hand" } });
    const r = await cloud.stack.up(program);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`adoptId: "${made.id}"`);
    expect(r.errors[0].message).toContain("renamed since");
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([made.id]);
    await cloud.api.perform("deleteVpc", { vpc: made.id });
  });

  it("two plugin processes of one stack racing on the journal: one VPC, and the other process says a create is under way", async () => {
    // Two plugin processes (two `pulumi up`s of one stack, run at once) get the same create at the same moment.
    const plugins = [0, 1].map(
      () => new PluginHost({ project: "test-project", cwd: REPO_ROOT, env: { CLOUDDB_JOURNAL_DIR: cloud.journalDir } }),
    );
    try {
      await Promise.all(plugins.map((p) => p.start()));
      await Promise.all(plugins.map((p) => p.configure(stackConfig(cloud.emulator), ["clouddb:apiKey"])));
      const urn = "urn:pulumi:test::test-project::pulumi-nodejs:dynamic/clouddb:Vpc::raced";
      const news = {
        __provider: providerText("vpc"),
        __owner: "test-project/test/clouddb:index:Vpc/raced",
        name: "raced",
        cidr: "10.81.0.0/16",
        regionCode: "us-east-1",
      };
      const checked = (await plugins[0].check(urn, {}, news)).inputs;
      await cloud.clearRequests();
      await cloud.controls.latency(1_500);
      const outcomes = await Promise.allSettled(plugins.map((p) => p.create(urn, checked)));
      await cloud.controls.latency(0);
      const vpcs = (await cloud.api.perform("listVpcs")).items.filter((v) => v.name === "raced");
      for (const v of vpcs) await cloud.api.perform("deleteVpc", { vpc: v.id });
      expect(vpcs).toHaveLength(1);
      expect(await posts(/\/vpcs$/)).toBe(1);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [String((o.reason as Error).message)] : []));
      expect(refused).toEqual([expect.stringContaining("is under way in another process")]);
    } finally {
      await Promise.all(plugins.map((p) => p.close()));
    }
  });
});
