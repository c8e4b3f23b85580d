/**
 * examples/automation-tenants as N workers (`index.ts up --tenants 3 --workers 2`), under the
 * real Pulumi CLI, as a fleet on N runners runs it: each worker a process of its own with its
 * own journal directory, all with the one key, against an emulator that limits the key to 10
 * requests a second (429s carrying `Retry-After`). Every tenant's stack makes its database,
 * once; each worker keeps its pacing files in its own journal directory, told the fleet's size,
 * its number in it and the key's limit, on the fleet's grid in the slot of its number; `destroy` (with the same workers) removes them all.
 */
import * as fs from "fs";
import * as path from "path";
import { describeWithCli } from "../../harness/cli/tools";
import { tenantsExample } from "./support/tenantsExample";

/** The files under `dir`, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

/** `text` as a regular expression that matches it alone. */
const esc = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describeWithCli("examples/automation-tenants as worker processes under the real CLI", (tools) => {
  it("shares the tenants among 2 workers, each with its own journal directory, then destroys them", async () => {
    const set = await tenantsExample(tools, "clouddb-tenant-workers-", (dir) => ({
      // What the workers must not use: each is given its own.
      CLOUDDB_JOURNAL_DIR: path.join(dir, "parent-journal"),
      // The key's limit, as the emulator's (tenantsExample.ts): with the workers' count, a fleet's grid.
      CLOUDDB_KEY_RATE_LIMIT: "10",
    }));
    const { dir, api, example } = set;
    const parentJournal = path.join(dir, "parent-journal");
    const tenants = ["tenant-01", "tenant-02", "tenant-03"];
    // Worker k runs every k-th tenant: 1 runs tenant-01 and tenant-03, 2 runs tenant-02.
    const workerOf: Record<string, number> = { "tenant-01": 1, "tenant-02": 2, "tenant-03": 1 };
    const journalOf = (k: number) => path.join(dir, "tenants", "workers", `worker-${k}`, "journal");
    try {
      const up = await example("up", "--tenants", "3", "--workers", "2", "--parallel", "2");
      expect(up.stdout).toContain("in 2 worker process(es)");
      for (const tenant of tenants) {
        const w = `\\[w${workerOf[tenant]}\\]`;
        expect(up.stdout).toMatch(new RegExp(`${w} .*${tenant} +\\+ db \\(clouddb:Service\\) created in \\d+\\.\\ds`));
        expect(up.stdout).toMatch(new RegExp(`${w} .*${tenant} +done \\(pulumi up in \\d+\\.\\ds\\)`));
        expect(up.stdout).toMatch(new RegExp(`^  ${tenant} +ok `, "m"));
      }
      expect(up.stdout).toContain("3 of 3 tenant(s) done");
      expect(up.stdout).toMatch(new RegExp(`^worker 1: 2 of 2 tenant\\(s\\) done in .*\\(journal ${esc(journalOf(1))}\\)$`, "m"));
      expect(up.stdout).toMatch(new RegExp(`^worker 2: 1 of 1 tenant\\(s\\) done in .*\\(journal ${esc(journalOf(2))}\\)$`, "m"));
      // Each worker's provider processes paced the key from their own journal directory, and none used the parent's.
      for (const k of [1, 2]) expect(filesUnder(path.join(journalOf(k), "pacing")).filter((f) => f.endsWith(".json"))).not.toEqual([]);
      // Each was told the fleet (2 machines, 10 a second) and its number in it, and paced on its grid: its schedule holds the slot of its number.
      for (const k of [1, 2]) {
        const pacing = path.join(journalOf(k), "pacing");
        type Grid = { machines: number; perSecond: number; owned: number; index?: number };
        const grids = fs
          .readdirSync(pacing)
          .filter((f) => f.endsWith(".json"))
          .map((f) => (JSON.parse(fs.readFileSync(path.join(pacing, f), "utf8")) as { fleet?: Grid }).fleet)
          .filter((g) => g !== undefined);
        expect(grids.map((g) => [g.machines, g.perSecond, g.index, g.owned])).toEqual([[2, 10, k - 1, k - 1]]);
      }
      expect(filesUnder(parentJournal)).toEqual([]);
      // Every tenant's database, made once.
      const services = (await api.perform("listServices", {})).items;
      expect(services.map((s) => s.name).sort()).toEqual(tenants.map((t) => `${t}-db`));

      const down = await example("destroy", "--tenants", "3", "--workers", "2", "--parallel", "2");
      expect(down.stdout).toContain("3 of 3 tenant(s) done");
      for (const tenant of tenants) expect(down.stdout).toMatch(new RegExp(`${tenant} +- db \\(clouddb:Service\\) deleted`));
      expect((await api.perform("listServices", {})).items).toEqual([]);
    } finally {
      await set.close();
    }
  }, 240_000);
});
