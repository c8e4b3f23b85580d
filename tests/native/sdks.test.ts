/**
 * The native plugin's SDKs (`sdk-native/`) are what the real CLI generates from schema.json
 * now (`npm run generate:sdks -- --check`), and nothing in them was edited by hand. Needs the
 * Pulumi tools built (`npm run pulumi:build`) and Go; without them it is skipped, and says so
 * (it fails instead when `CLOUDDB_REQUIRE_PULUMI=1`, as CI sets it).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

const { builtTools } = require("../../scripts/lib/pulumi-tools") as {
  builtTools: (root: string, env: NodeJS.ProcessEnv) => { codegen: string } | undefined;
};

const built = builtTools(REPO_ROOT, process.env) !== undefined;
if (!built && process.env.CLOUDDB_REQUIRE_PULUMI === "1") throw new Error("the Pulumi tools are not built: run `npm run pulumi:build`");
if (!built) console.warn("skipped: the Pulumi tools are not built (npm run pulumi:build), so the native SDKs were not regenerated");

/** `npm run generate:sdks -- --check` in `root`. */
function check(root: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "native-sdks.js"), "--check"], {
    cwd: root,
    encoding: "utf8",
    timeout: 300_000,
  });
  return { status: r.status, stderr: r.stderr };
}

(built ? describe : describe.skip)("the native plugin's SDKs", () => {
  it("are what the CLI generates from schema.json now", () => {
    const r = check(REPO_ROOT);
    expect(r.stderr).not.toMatch(/differ from what/);
    expect(r.status).toBe(0);
  });

  it("are found changed when a generated file was edited by hand", () => {
    // A copy of what the check reads: the script, its library, the pins, the overlays, the schema and the SDKs.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-sdks-"));
    try {
      const sources = [
        "scripts/native-sdks.js",
        "scripts/lib",
        "tools/pulumi",
        "tools/sdk-overlays",
        "sdk/promiseStacks.ts",
        "schema.json",
      ];
      for (const p of [...sources, "sdk-native", "package.json"]) {
        fs.mkdirSync(path.dirname(path.join(copy, p)), { recursive: true });
        fs.cpSync(path.join(REPO_ROOT, p), path.join(copy, p), { recursive: true });
      }
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(copy, "node_modules"));
      fs.symlinkSync(path.join(REPO_ROOT, ".tools"), path.join(copy, ".tools"));
      const file = path.join(copy, "sdk-native", "python", "pulumi_clouddb", "vpc.py");
      fs.appendFileSync(file, "\n# edited by hand\n");
      // The Java SDK too: a generated source, and the pom.xml the script writes beside it.
      fs.appendFileSync(
        path.join(copy, "sdk-native", "java", "src", "main", "java", "io", "github", "clouddb", "pulumi", "clouddb", "Vpc.java"),
        "\n// edited\n",
      );
      fs.appendFileSync(path.join(copy, "sdk-native", "java", "pom.xml"), "\n<!-- edited -->\n");
      // The TypeScript SDK's copy of the dynamic SDK's file (an overlay): its source is sdk/.
      fs.appendFileSync(path.join(copy, "sdk-native", "nodejs", "promiseStacks.ts"), "\n// edited\n");
      const r = check(copy);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("sdk-native/python/pulumi_clouddb/vpc.py");
      expect(r.stderr).toContain("sdk-native/java/src/main/java/io/github/clouddb/pulumi/clouddb/Vpc.java");
      expect(r.stderr).toContain("sdk-native/java/pom.xml");
      expect(r.stderr).toContain("sdk-native/nodejs/promiseStacks.ts");
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
