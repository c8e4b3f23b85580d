/**
 * The quickstart program through the real Pulumi CLI (Automation API, file backend,
 * passphrase), against the emulator. Runs only where `pulumi` is on PATH; this machine
 * has none, so here it is skipped and says so.
 */
import quickstart = require("../../examples/quickstart");
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import { hasPulumiCli, runWithAutomation } from "../../harness/automation";
import { stackConfig } from "../../harness/cloud";

const hasCli = hasPulumiCli();
if (!hasCli) console.warn("skipped: the pulumi CLI is not on PATH, so the Automation API suite did not run");

describe("the quickstart through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
  });
  afterAll(async () => {
    await emu.close();
  });

  (hasCli ? it : it.skip)(
    "deploys, exports a secret password, and destroys everything",
    async () => {
      const r = await runWithAutomation(quickstart, stackConfig(emu), { secretKeys: ["clouddb:apiKey"] });
      expect(r.resourceChanges.create).toBe(3);
      expect(r.secretOutputNames).toContain("password");
      expect(String(r.outputs.host)).toContain(String(r.outputs.serviceId));
      expect(r.stdout).not.toContain(emu.pat);
      const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
      try {
        expect((await api.perform("listServices")).items).toEqual([]);
        expect((await api.perform("listVpcs")).items).toEqual([]);
      } finally {
        await api.close();
      }
    },
    300_000,
  );
});
