/**
 * Runs a program through the real CLI with the Automation API, when the CLI is installed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { hasPulumiCli, runWithAutomation } from "../../harness/automation";
import { newCloud, readCloud, Thing } from "./thingProvider";

const hasCli = hasPulumiCli();
if (!hasCli) {
  console.warn("skipped: the pulumi CLI is not on PATH, so the harness's Automation API test did not run");
}

describe("runWithAutomation", () => {
  (hasCli ? it : it.skip)(
    "creates and destroys a dynamic resource through the real engine",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "auto-cloud-"));
      const cloudFile = path.join(dir, "cloud.json");
      newCloud(cloudFile);
      try {
        const r = await runWithAutomation(
          () => {
            const t = new Thing("a", { cloudFile, size: 2 }, { additionalSecretOutputs: ["token"] });
            return { label: t.sizeLabel, token: t.token };
          },
          { "test:greeting": "hello" },
        );
        expect(r.outputs.label).toBe("2GB");
        expect(r.secretOutputNames).toContain("token");
        const l = readCloud(cloudFile).log;
        expect(l.some((x) => x.startsWith("create:a"))).toBe(true);
        expect(l.some((x) => x.startsWith("delete:a"))).toBe(true);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
