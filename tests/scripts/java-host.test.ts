/**
 * `npm run pulumi:build` builds Pulumi's Java language host from its pin
 * (tools/pulumi/java.json) and links it into the tools' `bin/`, the folder it prints, so that
 * `runtime: java` programs find it on PATH; a bad pin is refused naming the field. Needs the
 * tools built (skipped, saying so, otherwise).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

const { builtTools } = require("../../scripts/lib/pulumi-tools") as {
  builtTools: (root: string, env: NodeJS.ProcessEnv) => { bin: string } | undefined;
};
const { builtJavaHost, readJavaPins } = require("../../scripts/lib/pulumi-java") as {
  builtJavaHost: (root: string, env: NodeJS.ProcessEnv) => string | undefined;
  readJavaPins: (root: string) => { version: string };
};

const tools = builtTools(REPO_ROOT, process.env);
if (tools === undefined) console.warn("skipped: the Pulumi tools are not built (npm run pulumi:build)");

(tools ? describe : describe.skip)("the Java language host of npm run pulumi:build", () => {
  it("is linked into the folder pulumi:build prints, and runs", () => {
    const r = spawnSync("npm", ["run", "--silent", "pulumi:build"], { cwd: REPO_ROOT, encoding: "utf8", timeout: 600_000 });
    expect(r.status).toBe(0);
    const bin = r.stdout.trim();
    const host = builtJavaHost(REPO_ROOT, process.env);
    expect(host).toBeDefined();
    expect(fs.realpathSync(path.join(bin, "pulumi-language-java"))).toBe(fs.realpathSync(host!));
    const help = spawnSync(path.join(bin, "pulumi-language-java"), ["--help"], { encoding: "utf8" });
    expect(help.stderr).toMatch(/Usage of .*pulumi-language-java/);
  });

  it("refuses a pin that is not a Go module version, naming the field", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-java-pin-"));
    try {
      fs.mkdirSync(path.join(root, "tools", "pulumi"), { recursive: true });
      const pins = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "tools", "pulumi", "java.json"), "utf8")) as Record<string, unknown>;
      fs.writeFileSync(path.join(root, "tools", "pulumi", "java.json"), JSON.stringify({ ...pins, version: "1.13" }));
      expect(() => readJavaPins(root)).toThrow(/tools\/pulumi\/java\.json: version must be a Go module version/);
      expect(readJavaPins(REPO_ROOT).version).toMatch(/^v\d+\.\d+\.\d+$/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
