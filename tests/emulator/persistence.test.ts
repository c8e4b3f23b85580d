/**
 * Persistence through the CLI: kill -9 in the middle of transitions, restart on the same
 * data directory, and every resource is there and finishes its transition.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startCli, type CliEmulator } from "./support/cli-process";
import { EmulatorApi } from "./support/emulator-api";

let dataDir: string;
const running: CliEmulator[] = [];

async function cli(args: string[]): Promise<CliEmulator> {
  const c = await startCli(["--port", "0", "--data-dir", dataDir, ...args]);
  running.push(c);
  return c;
}

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "clouddb-emu-persist-"));
});
afterEach(async () => {
  for (const c of running.splice(0)) if (c.child.exitCode === null && c.child.signalCode === null) await c.kill9();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("CLI", () => {
  it("prints machine-readable KEY=value lines, the base URL first, with the default tokens", async () => {
    const c = await cli([]);
    expect(c.firstLine).toMatch(/^CLOUDDB_API_URL=http:\/\/127\.0\.0\.1:\d+\/public\/api\/v1$/);
    expect(c.printed).toMatchObject({
      CLOUDDB_API_KEY: "clouddb-emulator-pat",
      CLOUDDB_OAUTH_TOKEN: "clouddb-emulator-oauth",
      CLOUDDB_PROJECT_ID: expect.stringMatching(/^[a-z0-9]{10}$/),
      CLOUDDB_SECOND_PROJECT_ID: expect.stringMatching(/^[a-z0-9]{10}$/),
    });
    const res = await new EmulatorApi(c.emu).call("GET", "/auth/info");
    expect(res.body.apiKey.project.id).toBe(c.printed.CLOUDDB_PROJECT_ID);
  });
});

describe("persistence", () => {
  it("resumes every resource and its transition after kill -9 mid-transition", async () => {
    const first = await cli(["--clock-scale", "0.05"]);
    const api = new EmulatorApi(first.emu);
    const vpc = await api.createVpc();
    const a = await api.createService({ name: "a" });
    await api.waitFor(api.p(`/services/${a.service_id}`), (r) => r.body.status === "READY");
    const rs = await api.call("POST", api.p(`/services/${a.service_id}/replicaSets`), {
      body: { name: "r", nodes: 2, cpu_millis: 1000, memory_gbs: 4 },
    });
    const b = await api.createService({ name: "b", replica_count: 1 });
    const peering = await api.call("POST", api.p(`/vpcs/${vpc.id}/peerings`), {
      body: { peer_account_id: "acct", peer_region_code: "eu-west-1", peer_vpc_id: "vpc-p" },
    });
    expect([rs.body.status, b.status, peering.body.status]).toEqual(["creating", "QUEUED", "pending"]);
    await first.kill9();

    const second = await cli(["--clock-scale", "0.05"]);
    expect(second.printed.CLOUDDB_PROJECT_ID).toBe(first.printed.CLOUDDB_PROJECT_ID);
    expect(second.printed.CLOUDDB_SECOND_PROJECT_ID).toBe(first.printed.CLOUDDB_SECOND_PROJECT_ID);
    const again = new EmulatorApi(second.emu);
    expect((await again.call("GET", again.p(`/vpcs/${vpc.id}`))).body).toEqual(vpc);
    const services = (await again.call("GET", again.p("/services"))).body as Array<{ service_id: string; name: string }>;
    expect(services.map((s) => s.service_id).sort()).toEqual([a.service_id, b.service_id].sort());
    const bAfter = await again.waitFor(again.p(`/services/${b.service_id}`), (r) => r.body.status === "READY");
    expect(bAfter.body).toMatchObject({ name: "b", ha_replicas: { replica_count: 1 }, created: b.created });
    expect(bAfter.body.initial_password).toBeUndefined();
    const sets = await again.waitFor(again.p(`/services/${a.service_id}/replicaSets`), (r) => r.body[0]?.status === "active");
    expect(sets.body).toEqual([{ ...rs.body, status: "active" }]);
    await again.waitFor(again.p(`/vpcs/${vpc.id}/peerings/${peering.body.id}`), (r) => r.body.status === "active");
  });

  it("loses no acknowledged change when killed right after the answer", async () => {
    const first = await cli(["--clock-scale", "1"]);
    const api = new EmulatorApi(first.emu);
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push((await api.createVpc({ name: `v${i}`, cidr: `10.${i}.0.0/16` })).id);
    expect((await api.call("POST", api.p(`/vpcs/${ids[3]}/rename`), { body: { name: "last" } })).status).toBe(200);
    const deleted = await api.call("DELETE", api.p(`/vpcs/${ids[4]}`));
    expect(deleted.status).toBe(204);
    await first.kill9();

    const second = await cli(["--clock-scale", "1"]);
    const again = new EmulatorApi(second.emu);
    const vpcs = (await again.call("GET", again.p("/vpcs"))).body as Array<{ id: string; name: string }>;
    expect(vpcs.map((v) => v.id).sort()).toEqual(ids.filter((_, i) => i !== 4).sort());
    expect(vpcs.find((v) => v.id === ids[3])!.name).toBe("last");
  });

  it("keeps the clock moved by the control path across a restart", async () => {
    const first = await cli(["--clock-scale", "1"]);
    const api = new EmulatorApi(first.emu);
    const s = await api.createService();
    await api.advance(7_000);
    await first.kill9();
    const second = await cli(["--clock-scale", "1"]);
    const again = new EmulatorApi(second.emu);
    expect((await again.call("GET", again.p(`/services/${s.service_id}`))).body.status).toBe("READY");
  });
});
