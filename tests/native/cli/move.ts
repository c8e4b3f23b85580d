/**
 * What the tests of a move from the dynamic providers to the native plugin share: the program
 * of the upgrade fixtures (tests/upgrade/program.ts) written against the native TypeScript SDK
 * (fixtures/upgrade-native), installed; and release 0.1.0's fixture as a stack of the CLI
 * (`pulumi stack import` of its checkpoint, as harness/cli/deployment.ts writes it: the dynamic
 * providers' default provider holding the stack config of the last `up`, as the engine stores
 * it), with the emulator holding what it describes.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { SNAPSHOT_FILE_NAME } from "../../../emulator/persistence/snapshot-file";
import { REPO_ROOT } from "../../../harness";
import type { Checkpoint } from "../../../harness/checkpoint";
import { deploymentOf, type Deployment } from "../../../harness/cli/deployment";
import { ClouddbClient } from "../../../provider/client";
import { API_URL_PLACEHOLDER, FIXTURE_PROJECT_ID, fixtureDir } from "../../upgrade/fixtures";
import { builtNodeSdk, CliStack, cliWorkspace, ok, withNode24 } from "./support";

/** The steps of `pulumi preview --json` that are not `same`, as `op type name`. */
export async function changes(stack: CliStack): Promise<string[]> {
  const r = await stack.pulumi("preview", "--json");
  const steps = (JSON.parse(r.stdout) as { steps?: Array<{ op: string; urn: string }> }).steps ?? [];
  return steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").slice(-2).join(" ")}`);
}

/** The old default provider's removal and the new one's creation, if the CLI plans them as steps: the move itself. */
export const MOVE = /^(delete pulumi:providers:pulumi-nodejs default|create pulumi:providers:clouddb default.*)$/;

/** How the native program differs from the fixtures' program, if at all. */
export interface NativeProgramOptions {
  /** Rewrites the program's source (`index.ts`). */
  readonly edit?: (source: string) => string;
  /**
   * Installs `pulumi-clouddb` (this repository) beside the native SDK, as a user who has not
   * uninstalled it yet has it: the dynamic providers' deletes during the move need it.
   */
  readonly withDynamicProviders?: boolean;
}

/** The native program in `work/native`, its dependencies installed (the built SDK, the newest @pulumi/pulumi). */
export async function nativeProgram(work: string, env: NodeJS.ProcessEnv, options: NativeProgramOptions = {}): Promise<string> {
  const dir = path.join(work, "native");
  fs.cpSync(path.join(__dirname, "fixtures", "upgrade-native"), dir, { recursive: true });
  const pkgFile = path.join(dir, "package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { dependencies: Record<string, string> };
  pkg.dependencies["@clouddb/pulumi-clouddb"] = `file:${await builtNodeSdk(env)}`;
  pkg.dependencies["@pulumi/pulumi"] = "latest";
  fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  if (options.edit) {
    const index = path.join(dir, "index.ts");
    fs.writeFileSync(index, options.edit(fs.readFileSync(index, "utf8")));
  }
  await ok("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env });
  if (options.withDynamicProviders) fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "pulumi-clouddb"), "dir");
  return dir;
}

/** Release 0.1.0's fixture as the stack `fixture` of the CLI, and what a test reaches it with. */
export interface ImportedFixture {
  /** The workspace: its folder (`work`), the stack's config file in `work/native` once {@link ImportedFixture.program} made it. */
  readonly work: string;
  /** The environment every command runs in, Node.js 24 first. */
  readonly env: NodeJS.ProcessEnv;
  readonly emu: RunningEmulator;
  readonly api: ClouddbClient;
  readonly control: EmulatorControl;
  readonly checkpoint: Checkpoint;
  /** The native program (see {@link nativeProgram}) with the stack selected and its config. */
  program(options?: NativeProgramOptions): Promise<CliStack>;
  close(): Promise<void>;
}

/** Imports release 0.1.0's fixture into a new workspace named after `name`, against an emulator restored from the fixture. */
export async function importedFixture(name: string): Promise<ImportedFixture> {
  const checkpoint = JSON.parse(fs.readFileSync(path.join(fixtureDir("0.1.0"), "checkpoint.json"), "utf8")) as Checkpoint;
  const ws = await cliWorkspace(name);
  const env = withNode24(ws.env);
  fs.mkdirSync(path.join(ws.work, "emulator"));
  fs.copyFileSync(path.join(fixtureDir("0.1.0"), "emulator", SNAPSHOT_FILE_NAME), path.join(ws.work, "emulator", SNAPSHOT_FILE_NAME));
  const emu = await startEmulator({ port: 0, clockScale: 0.02, dataDir: path.join(ws.work, "emulator"), projectId: FIXTURE_PROJECT_ID });
  const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  const control = new EmulatorControl(emu.url, emu.pat);
  const here = (config: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v === API_URL_PLACEHOLDER ? emu.baseUrl : v]));
  // The stack, its config, then its state: the fixture's checkpoint as a deployment.
  const importer = new CliStack(fs.mkdtempSync(path.join(ws.work, "import-")), ws.env);
  fs.writeFileSync(path.join(importer.dir, "Pulumi.yaml"), "name: upgrade\nruntime: yaml\n");
  await importer.pulumi("stack", "init", "fixture");
  for (const [k, v] of Object.entries(here(checkpoint.providerConfig!.values))) {
    await importer.pulumi("config", "set", ...(checkpoint.providerConfig!.secretKeys.includes(k) ? ["--secret"] : []), k, v);
  }
  const exported = JSON.parse((await importer.pulumi("stack", "export")).stdout) as Deployment;
  fs.writeFileSync(path.join(ws.work, "deployment.json"), JSON.stringify(deploymentOf(checkpoint, exported, here)));
  await importer.pulumi("stack", "import", "--file", path.join(ws.work, "deployment.json"));
  const stacks: CliStack[] = [];
  return {
    work: ws.work,
    env,
    emu,
    api,
    control,
    checkpoint,
    async program(options) {
      const stack = new CliStack(await nativeProgram(ws.work, env, options), env);
      fs.copyFileSync(path.join(importer.dir, "Pulumi.fixture.yaml"), path.join(stack.dir, "Pulumi.fixture.yaml"));
      await stack.pulumi("stack", "select", "fixture");
      stacks.push(stack);
      return stack;
    },
    async close() {
      await api.close();
      await emu.close();
      for (const s of stacks) s.close();
      fs.rmSync(ws.work, { recursive: true, force: true });
    },
  };
}
