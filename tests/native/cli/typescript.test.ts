/**
 * A TypeScript program on the native plugin, through the SDK generated from schema.json
 * (`sdk-native/nodejs`, built with its own tsc and installed beside the newest
 * `@pulumi/pulumi`, on Node.js 24): its whole life under the real CLI (life.ts).
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { wholeLife } from "./life";
import { builtNodeSdk, CliStack, describeWithCli, emulator, node24, ok, withNode24 } from "./support";

describeWithCli("a TypeScript program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    const env = withNode24();
    const sdk = await builtNodeSdk(env);
    stack = await CliStack.create("native-typescript", emu, { PATH: node24() });
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
