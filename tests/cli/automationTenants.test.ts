/**
 * examples/automation-tenants as a user runs it, under the real Pulumi CLI: its command line
 * (`index.ts up --tenants 4 --parallel 4`, then `destroy`) through the Automation API against
 * an emulator that limits the key to 10 requests a second, 429s carrying `Retry-After`: every
 * tenant's database is made, the progress names each tenant's steps and how many are done,
 * and `destroy` removes them all.
 */
import { describeWithCli } from "../../harness/cli/tools";
import { tenantsExample } from "./support/tenantsExample";

describeWithCli("examples/automation-tenants under the real CLI", (tools) => {
  it("provisions a database per tenant, showing each tenant's progress, then destroys them", async () => {
    const set = await tenantsExample(tools, "clouddb-tenants-");
    const { api, example } = set;
    try {
      const up = await example("up", "--tenants", "4", "--parallel", "4");
      const tenants = ["tenant-01", "tenant-02", "tenant-03", "tenant-04"];
      for (const tenant of tenants) {
        expect(up.stdout).toMatch(new RegExp(`${tenant} +\\+ db \\(clouddb:Service\\) creating\\.\\.\\.`));
        expect(up.stdout).toMatch(new RegExp(`${tenant} +\\+ db \\(clouddb:Service\\) created in \\d+\\.\\ds`));
        expect(up.stdout).toMatch(new RegExp(`${tenant} +done \\(pulumi up in \\d+\\.\\ds\\)`));
      }
      expect(up.stdout).toContain("[4/4 done]");
      expect(up.stdout).toContain("4 of 4 tenant(s) done");
      const services = (await api.perform("listServices", {})).items;
      expect(services.map((s) => s.name).sort()).toEqual(tenants.map((t) => `${t}-db`));

      const down = await example("destroy", "--tenants", "4", "--parallel", "4");
      expect(down.stdout).toContain("4 of 4 tenant(s) done");
      for (const tenant of tenants) expect(down.stdout).toMatch(new RegExp(`${tenant} +- db \\(clouddb:Service\\) deleted`));
      expect((await api.perform("listServices", {})).items).toEqual([]);
    } finally {
      await set.close();
    }
  }, 300_000);
});
