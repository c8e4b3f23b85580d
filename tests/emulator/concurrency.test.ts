/** Many clients at once lose no update, in memory and with a data directory. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorApi } from "./support/emulator-api";

describe("concurrency", () => {
  let dataDir: string;
  let emu: RunningEmulator | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "clouddb-emu-concurrency-"));
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps 50 concurrent service creates and 50 concurrent VPC creates and renames, also after a restart", async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01, dataDir });
    const api = new EmulatorApi(emu);
    const services = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.call("POST", api.p("/services"), { body: { name: `svc-${i}` } })),
    );
    expect(services.map((r) => r.status)).toEqual(Array(50).fill(202));
    const vpcs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.call("POST", api.p("/vpcs"), { body: { name: `vpc-${i}`, cidr: `10.${i}.0.0/16`, region_code: "us-east-1" } }),
      ),
    );
    expect(vpcs.map((r) => r.status)).toEqual(Array(50).fill(201));
    const renames = await Promise.all(
      vpcs.map((r, i) => api.call("POST", api.p(`/vpcs/${r.body.id}/rename`), { body: { name: `renamed-${i}` } })),
    );
    expect(renames.map((r) => r.status)).toEqual(Array(50).fill(200));

    const expectAll = async (a: EmulatorApi) => {
      const listed = (await a.call("GET", a.p("/services"))).body as Array<{ name: string }>;
      expect(listed.map((s) => s.name).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `svc-${i}`).sort());
      const listedVpcs = (await a.call("GET", a.p("/vpcs"))).body as Array<{ name: string; id: string }>;
      expect(listedVpcs.map((v) => v.name).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `renamed-${i}`).sort());
      expect(new Set(listedVpcs.map((v) => v.id)).size).toBe(50);
    };
    await expectAll(api);

    const projectId = emu.projectId;
    await emu.close();
    emu = await startEmulator({ port: 0, clockScale: 0.01, dataDir });
    expect(emu.projectId).toBe(projectId);
    await expectAll(new EmulatorApi(emu));
  });
});
