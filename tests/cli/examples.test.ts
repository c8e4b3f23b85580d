/**
 * Every example as a user runs it, under the real Pulumi CLI (the Node.js language host, its
 * TypeScript through ts-node) against the emulator: `preview`, `up`, `refresh --preview-only
 * --expect-no-changes`, `preview --expect-no-changes`, `destroy`, each of which must succeed.
 * No command prints the API key; the stack's exported state holds it nowhere, even with
 * `--show-secrets`; the stack's secret outputs stay secret; destroy leaves nothing in the
 * cloud but what the program adopted.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import { REPO_ROOT } from "../../harness";
import { CliProject } from "../../harness/cli/cliProject";
import { describeWithCli } from "../../harness/cli/tools";

const { examples } = require("../../scripts/lib/projects") as { examples(root: string): string[] };

/** The program's own config each example needs (its project's keys, unprefixed), given the emulator. */
async function ownConfig(name: string, emulator: RunningEmulator): Promise<Record<string, string>> {
  if (name === "production") return { protect: "false" }; // so that destroy can delete it
  if (name !== "adopt") return {};
  const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
  try {
    const made = await api.perform("createService", { body: { name: "legacy-orders" } });
    await api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 30_000 });
    return { existingServiceId: made.service_id, existingServiceName: "legacy-orders" };
  } finally {
    await api.close();
  }
}

/** What the cloud still holds: the number of VPCs and the names of the services. */
async function leftInCloud(emulator: RunningEmulator): Promise<{ vpcs: number; services: string[] }> {
  const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
  try {
    const services = (await api.perform("listServices")).items.map((s) => s.name ?? "");
    return { vpcs: (await api.perform("listVpcs")).items.length, services };
  } finally {
    await api.close();
  }
}

describeWithCli("the examples under the real CLI", (tools) => {
  it.each(examples(REPO_ROOT))(
    "%s: preview, up, refresh and preview without changes, destroy",
    async (name) => {
      const emulator = await startEmulator({ port: 0, clockScale: 0.02 });
      const project = await CliProject.create(path.join(REPO_ROOT, "examples", name), tools);
      try {
        const projectName = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8"))![1];
        const own = await ownConfig(name, emulator);
        await project.config(
          {
            "clouddb:apiUrl": emulator.baseUrl,
            "clouddb:projectId": emulator.projectId,
            ...Object.fromEntries(Object.entries(own).map(([k, v]) => [`${projectName}:${k}`, v])),
          },
          { "clouddb:apiKey": emulator.pat },
        );
        const printed: string[] = [];
        const run = async (args: string[]): Promise<string> => {
          const r = await project.expect(args);
          printed.push(r.stdout, r.stderr);
          return r.stdout;
        };
        await run(["preview"]);
        expect(await run(["up", "--yes", "--skip-preview"])).toMatch(/Resources:\n\s+\+ \d+ created/);
        const outputs = JSON.parse(await run(["stack", "output", "--json"])) as Record<string, unknown>;
        if ("password" in outputs) expect(outputs.password).toBe("[secret]");
        await run(["refresh", "--preview-only", "--expect-no-changes"]);
        await run(["preview", "--expect-no-changes"]);
        expect(await run(["destroy", "--yes", "--skip-preview"])).toMatch(/Resources:\n\s+- \d+ deleted/);
        expect(await project.exportState(true)).not.toContain(emulator.pat);
        for (const text of printed) expect(text).not.toContain(emulator.pat);
        expect(await leftInCloud(emulator)).toEqual(
          name === "adopt" ? { vpcs: 0, services: ["legacy-orders"] } : { vpcs: 0, services: [] },
        );
      } finally {
        await project.remove();
        await emulator.close();
      }
    },
    240_000,
  );
});
