/**
 * A TypeScript program on the native plugin, through the SDK generated from schema.json
 * (`sdk-native/nodejs`, built with its own tsc and installed beside the newest
 * `@pulumi/pulumi`, on Node.js 24): its whole life under the real CLI (life.ts).
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../harness";
import { wholeLife } from "./life";
import { CACHE, CliStack, describeWithCli, emulator, node24, ok, treeHash } from "./support";

/** `sdk-native/nodejs` built (`tsc`, then its package.json and README beside the output), cached by its content. */
async function builtSdk(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = path.join(CACHE, "nodejs-sdk", treeHash("sdk-native/nodejs"));
  const bin = path.join(dir, "bin");
  if (fs.existsSync(path.join(bin, "package.json"))) return bin;
  fs.rmSync(path.join(CACHE, "nodejs-sdk"), { recursive: true, force: true });
  fs.cpSync(path.join(REPO_ROOT, "sdk-native", "nodejs"), dir, { recursive: true });
  await ok("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: dir, env });
  await ok("npx", ["tsc"], { cwd: dir, env });
  for (const f of ["package.json", "README.md"]) fs.copyFileSync(path.join(dir, f), path.join(bin, f));
  return bin;
}

describeWithCli("a TypeScript program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    const PATH = node24();
    const env = { ...process.env, PATH: `${PATH}${path.delimiter}${process.env.PATH ?? ""}` };
    const sdk = await builtSdk(env);
    stack = await CliStack.create("native-typescript", emu, { PATH });
    const pkgFile = path.join(stack.dir, "package.json");
    const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { dependencies: Record<string, string> };
    pkg.dependencies["@clouddb/pulumi-clouddb"] = `file:${sdk}`;
    pkg.dependencies["@pulumi/pulumi"] = "latest";
    fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    await ok("npm", ["install", "--no-audit", "--no-fund"], { cwd: stack.dir, env });
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("previews, deploys, replaces on replaceOnChanges, refreshes drift, imports by id and destroys, leaving the adopted service", async () => {
    await wholeLife(stack, emu, { countAfterCluster: true });
  });
});
