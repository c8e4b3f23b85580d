/**
 * The emulator (the CLI, with --data-dir) killed with SIGKILL and started again on the same
 * directory, port, project and token, in the middle of a create and of a resize: the next
 * `up` converges, nothing is duplicated and nothing is lost.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { ClouddbClient } from "../../provider/client";
import { expectNoErrors, TestStack, until } from "../../harness";
import { freePort, startEmulatorProcess, type EmulatorProcess, type EmulatorProcessOptions } from "../../harness/emulatorProcess";

const program = (cpuMillis: number, memoryGbs: number) => () => {
  const db = new clouddb.Service("db", { name: "durable", cpuMillis, memoryGbs });
  new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "durable-rs", nodes: 2, cpuMillis: 500, memoryGbs: 2 });
  return { id: db.serviceId };
};

describe("emulator killed and restarted on its data dir", () => {
  let dataDir: string;
  let opts: EmulatorProcessOptions;
  let emu: EmulatorProcess;
  let stack: TestStack;
  let api: ClouddbClient;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-restart-"));
    // create 3.5 s, resize 1.5 s, replica set 1.5 s: time to kill in the middle
    opts = { dataDir, port: await freePort(), projectId: "restart001", pat: "restart-test-pat", clockScale: 0.5 };
    emu = await startEmulatorProcess(opts);
    const config = {
      "clouddb:apiUrl": emu.baseUrl,
      "clouddb:apiKey": emu.pat,
      "clouddb:projectId": emu.projectId,
      "clouddb:pollInterval": "50ms",
      "clouddb:pollMaxInterval": "200ms",
      "clouddb:readCache": "0s",
    };
    stack = await TestStack.create({ host: "plugin", config, secretKeys: ["clouddb:apiKey"] });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, retryDeadlineMs: 5_000 });
  });
  afterAll(async () => {
    await stack?.close();
    await api?.close();
    await emu?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function crashAndRestart(): Promise<void> {
    await emu.kill9();
    await new Promise((r) => setTimeout(r, 300));
    emu = await startEmulatorProcess(opts);
  }

  it("in the middle of a create: the next up converges with one service and one replica set", async () => {
    const running = stack.up(program(500, 2));
    // Kill only once the create was acknowledged (answered 202): a change the emulator
    // shows in a list may not be on disk until its own answer is sent.
    await until("the acknowledged create", async () =>
      (await emu.requests()).find((r) => r.method === "POST" && /\/services$/.test(r.path) && r.status === 202),
    );
    const made = await until("the service", async () => (await api.perform("listServices")).items.find((s) => s.name === "durable"));
    expect(["QUEUED", "CONFIGURING"]).toContain(made.status);
    await crashAndRestart();
    await running; // may converge on its own (polls ride out the outage) or fail; either way:
    expectNoErrors(await stack.up(program(500, 2)));
    const services = (await api.perform("listServices")).items;
    expect(services.map((s) => s.service_id)).toEqual([made.service_id]);
    expect(services[0].status).toBe("READY");
    expect((services[0].read_replica_sets ?? []).map((r) => [r.name, r.status])).toEqual([["durable-rs", "active"]]);
    expect(stack.resource("db").id).toBe(made.service_id);
  });

  it("in the middle of a resize: the next up converges on the new size, nothing lost", async () => {
    const id = stack.resource("db").id;
    const rsId = stack.resource("rs").id;
    const running = stack.up(program(1000, 4));
    await until("the resize", async () => {
      const s = await api.perform("getService", { service: id });
      return s.resources?.[0]?.spec?.cpu_millis === 1000 && s.status === "CONFIGURING" ? s : undefined;
    });
    await crashAndRestart();
    await running;
    expectNoErrors(await stack.up(program(1000, 4)));
    const services = (await api.perform("listServices")).items;
    expect(services.map((s) => s.service_id)).toEqual([id]);
    expect(services[0].status).toBe("READY");
    expect(services[0].resources?.[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    expect((services[0].read_replica_sets ?? []).map((r) => r.id)).toEqual([rsId]);
    expect(stack.resource("db").outputs).toMatchObject({ cpuMillis: 1000, memoryGbs: 4 });
    const again = expectNoErrors(await stack.up(program(1000, 4)));
    expect(again.steps.map((s) => s.op)).toEqual(["same", "same"]);
    expectNoErrors(await stack.destroy());
    expect((await api.perform("listServices")).items).toEqual([]);
  });
});
