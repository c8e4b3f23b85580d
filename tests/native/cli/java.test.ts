/**
 * A Java program on the native plugin, through the SDK generated from schema.json
 * (`sdk-native/java`, installed by Maven into the machine's local repository), under the real
 * CLI with Pulumi's Java language host (tools/pulumi/java.json, built by `npm run pulumi:build`):
 * `up`, `refresh --expect-no-changes`, `destroy`. Maven fetches what it lacks once, before the
 * CLI starts (the SDK's `mvn install`, and the program's `mvn compile exec:help`: nothing when
 * the local repository holds it), then runs offline under the CLI (`.mvn/maven.config` in the
 * test's copy of the program), so no registry is reached during the deployment.
 * Skipped, saying so, where `mvn`, `java` or the Java host is missing.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { ClouddbClient } from "../../../provider/client";
import { REPO_ROOT } from "../../../harness";
import { CACHE, CliStack, describeWithCli, emulator, ok, TOOLS, treeHash, VERSION } from "./support";

const { isExecutable } = require("../../../scripts/lib/pulumi-tools") as { isExecutable: (file: string) => boolean };

const onPath = (name: string): boolean =>
  (process.env.PATH ?? "").split(path.delimiter).some((d) => d !== "" && isExecutable(path.join(d, name)));
const javaReady = TOOLS !== undefined && isExecutable(path.join(TOOLS.bin, "pulumi-language-java")) && onPath("mvn") && onPath("java");
if (!javaReady) console.warn("skipped: the Java program needs mvn, java and the Java host (npm run pulumi:build)");

/** Maven offline: the deployment fetches nothing. */
const OFFLINE = "--offline\n";

/** `sdk-native/java` installed into the local Maven repository, once per content of the SDK. */
async function installedJavaSdk(): Promise<void> {
  const dir = path.join(CACHE, "java-sdk", treeHash("sdk-native/java"));
  if (fs.existsSync(path.join(dir, "installed"))) return;
  fs.rmSync(path.join(CACHE, "java-sdk"), { recursive: true, force: true });
  fs.cpSync(path.join(REPO_ROOT, "sdk-native", "java"), dir, { recursive: true });
  await ok("mvn", ["-q", "--no-transfer-progress", "install", "-DskipTests"], { cwd: dir });
  fs.writeFileSync(path.join(dir, "installed"), "");
}

(javaReady ? describeWithCli : describe.skip)("a Java program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    await installedJavaSdk();
    emu = await emulator();
    stack = await CliStack.create("native-java", emu);
    // The program's copy asks for the SDK of this version (the one installed above), whatever the example names.
    const pom = path.join(stack.dir, "pom.xml");
    fs.writeFileSync(
      pom,
      fs.readFileSync(pom, "utf8").replace(/(<artifactId>clouddb<\/artifactId>\s*<version>)[^<]*(<\/version>)/, `$1${VERSION}$2`),
    );
    // What the program needs (its dependencies, exec-maven-plugin) into the local repository.
    await ok("mvn", ["-q", "--no-transfer-progress", "compile", "exec:help"], { cwd: stack.dir });
    fs.mkdirSync(path.join(stack.dir, ".mvn"));
    fs.writeFileSync(path.join(stack.dir, ".mvn", "maven.config"), OFFLINE);
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("deploys a VPC and a service, refreshes with no changes and destroys them", async () => {
    const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    try {
      await stack.pulumi("up", "--yes", "--skip-preview");
      const outs = await stack.outputs();
      const vpcs = (await api.perform("listVpcs")).items.map((v) => v.id);
      const services = await api.perform("listServices");
      expect(vpcs).toEqual([outs.vpcId]);
      expect(services.items.map((s) => s.service_id)).toEqual([outs.serviceId]);
      const state = await stack.exported();
      expect(state.resources.find((r) => r.type === "clouddb:index:Service")?.outputs?.vpcId).toBe(outs.vpcId);
      expect(typeof outs.host).toBe("string");
      // The port an integer (the SDK's `Integer`; a `Double` printed "5432.0").
      expect(outs.address).toMatch(/^[a-z0-9.-]+:\d+$/);
      // The API key is a secret: never in the state in plain text.
      expect(state.text).not.toContain(emu.pat);

      await stack.pulumi("refresh", "--yes", "--expect-no-changes");

      await stack.pulumi("destroy", "--yes", "--skip-preview");
      expect((await api.perform("listServices")).items).toEqual([]);
      expect((await api.perform("listVpcs")).items).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
