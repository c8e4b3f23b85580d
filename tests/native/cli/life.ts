/**
 * The whole life of a native program under the real CLI, the same for every language: the
 * example programs (`examples/native-<language>`) each declare an explicit provider `prov`, a
 * VPC `net`, a service `orders-db` (with `replaceOnChanges: ["cpuMillis"]`, inside a component
 * `orders` where the language has components) with a read replica set `orders-reads`, an
 * adopted service `legacy` (config `adoptId`), and export `vpcId`, `host`, `address` (`host:port`), `password` (secret),
 * `legacyId` and `serviceCount` (from `getServices`; YAML, which has no length, the list as
 * `serviceList`).
 */
import type { RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { ClouddbClient } from "../../../provider/client";
import { ADOPTED_KEY } from "../../../provider/framework/adoption";
import type { CliStack } from "./support";

/** What differs between languages. */
export interface LifeOptions {
  /** Whether `serviceCount` is looked up after the cluster exists (2 services then), or when the program starts (YAML: 1). */
  readonly countAfterCluster: boolean;
  /** Runs after the first `up`, while every resource exists and nothing has changed since. */
  readonly afterUp?: () => Promise<void>;
}

const writes = async (c: EmulatorControl): Promise<string[]> =>
  (await c.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

/** Runs the life, asserting what the user sees at each step. */
export async function wholeLife(stack: CliStack, emu: RunningEmulator, opts: LifeOptions): Promise<void> {
  const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  const control = new EmulatorControl(emu.url, emu.pat);
  try {
    // An existing service, for the program to adopt.
    const legacy = await api.perform("createService", { body: { name: "legacy-db", cpu_millis: "500", memory_gbs: "2" } });
    await api.waitForService(legacy.service_id, { until: ["READY"], timeoutMs: 60_000 });
    await stack.pulumi("config", "set", "adoptId", legacy.service_id);
    await control.clearRequests();

    // preview: every resource planned, nothing sent to the API.
    const planned = await stack.plannedSteps();
    expect(planned).toEqual(
      expect.arrayContaining(["create prov", "create net", "create orders-db", "create orders-reads", "create legacy"]),
    );
    expect(await writes(control)).toEqual([]);

    // up: made, the password a secret (also in state), the adoption told under the resource.
    const up = await stack.pulumi("up", "--yes", "--skip-preview");
    expect(up.stdout).toMatch(new RegExp(`clouddb:index:Service \\(legacy\\):\\s*\\n\\s*(info: )?.*adopts Service ${legacy.service_id}`));
    const shown = await stack.outputs();
    expect(shown.password).toBe("[secret]");
    const outs = await stack.outputs(true);
    expect(typeof outs.password).toBe("string");
    expect(String(outs.password).length).toBeGreaterThanOrEqual(8);
    expect(outs.legacyId).toBe(legacy.service_id);
    // `host:port`, the port an integer in every SDK (a Python or Java float printed "5432.0").
    expect(outs.address).toMatch(/^[a-z0-9.-]+:\d+$/);
    // `serviceCount`, or (YAML has no length) the list itself.
    const count = outs.serviceCount ?? (outs.serviceList as unknown[] | undefined)?.length;
    expect(count).toBe(opts.countAfterCluster ? 2 : 1);
    const state = await stack.exported();
    expect(state.text).not.toContain(String(outs.password));
    const byName = (name: string) => state.resources.find((r) => r.urn.endsWith(`::${name}`));
    expect(byName("legacy")?.outputs?.[ADOPTED_KEY]).toBe(true);
    expect(byName("orders-db")?.outputs?.[ADOPTED_KEY]).toBe(false);
    const firstDb = byName("orders-db")!.id!;
    expect((await api.perform("getService", { service: firstDb })).status).toBe("READY");
    expect(await stack.plannedSteps()).toEqual([]);
    await opts.afterUp?.();

    // replaceOnChanges: a new CPU replaces the service (and its replica set), rather than resizing it.
    await stack.pulumi("config", "set", "cpuMillis", "1000");
    await stack.pulumi("config", "set", "memoryGbs", "4"); // (for YAML, which cannot compute it)
    expect((await stack.plannedSteps()).filter((s) => s.endsWith(" orders-db"))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(replace|create-replacement) orders-db$/)]),
    );
    await stack.pulumi("up", "--yes", "--skip-preview");
    const replaced = (await stack.exported()).resources.find((r) => r.urn.endsWith("::orders-db"))!;
    expect(replaced.id).not.toBe(firstDb);
    expect(replaced.outputs?.cpuMillis).toBe(1000);
    const live = (await api.perform("listServices")).items.map((s) => s.service_id);
    expect(live).not.toContain(firstDb);

    // refresh: drift in the cloud is recorded.
    const vpcId = String(outs.vpcId);
    await api.perform("renameVpc", { vpc: vpcId, body: { name: "renamed-outside" } });
    await stack.pulumi("refresh", "--yes", "--skip-preview");
    expect((await stack.exported()).resources.find((r) => r.id === vpcId)?.outputs?.name).toBe("renamed-outside");

    // import: an existing VPC by its id alone, through the default provider (the stack's clouddb:* config).
    const other = await api.perform("createVpc", { body: { name: "imported-net", cidr: "10.77.0.0/16", region_code: "us-east-1" } });
    // (No code generated: the language hosts built here are too old to have GenerateProgram.)
    await stack.pulumi("import", "clouddb:index:Vpc", "imported", other.id, "--yes", "--protect=false", "--generate-code=false");
    const importedState = (await stack.exported()).resources.find((r) => r.urn.endsWith("::imported"))!;
    expect(importedState).toMatchObject({
      id: other.id,
      inputs: { cidr: "10.77.0.0/16", name: "imported-net", regionCode: "us-east-1" },
      outputs: { name: "imported-net", [ADOPTED_KEY]: false },
    });

    // destroy: everything the stack made or imported is deleted; the adopted service stays, and the CLI says so under it.
    const destroyed = await stack.pulumi("destroy", "--yes", "--skip-preview");
    expect(destroyed.stdout).toMatch(
      new RegExp(
        `clouddb:index:Service \\(legacy\\):\\s*\\n\\s*(info: )?Service ${legacy.service_id} is not deleted: the stack adopted it`,
      ),
    );
    expect((await api.perform("listServices")).items.map((s) => s.service_id)).toEqual([legacy.service_id]);
    expect((await api.perform("listVpcs")).items).toEqual([]);
  } finally {
    await api.close();
  }
}
