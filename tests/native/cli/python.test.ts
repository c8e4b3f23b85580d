/**
 * A Python program on the native plugin, through the SDK generated from schema.json
 * (`sdk-native/python`, pip-installed with `pulumi` from PyPI into a virtualenv kept in the
 * cache): its whole life under the real CLI (life.ts). The old Python host reads no
 * `virtualenv` option, so `PULUMI_PYTHON_CMD` names the virtualenv's Python.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../harness";
import { wholeLife } from "./life";
import { CACHE, CliStack, describeWithCli, emulator, ok, treeHash } from "./support";

/** A virtualenv with `pulumi` and the generated SDK, cached by the SDK's content. */
async function virtualenv(): Promise<string> {
  const dir = path.join(CACHE, "python-venv", treeHash("sdk-native/python"));
  const python = path.join(dir, "bin", "python");
  if (fs.existsSync(path.join(dir, "ready"))) return python;
  fs.rmSync(path.join(CACHE, "python-venv"), { recursive: true, force: true });
  await ok("python3", ["-m", "venv", dir]);
  const sdk = path.join(dir, "sdk");
  fs.cpSync(path.join(REPO_ROOT, "sdk-native", "python"), sdk, { recursive: true });
  await ok(python, ["-m", "pip", "install", "--quiet", "pulumi>=3.269.0,<4.0.0", sdk]);
  fs.writeFileSync(path.join(dir, "ready"), "");
  return python;
}

describeWithCli("a Python program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    stack = await CliStack.create("native-python", emu, { PULUMI_PYTHON_CMD: await virtualenv() });
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("previews, deploys, replaces on replaceOnChanges, refreshes drift, imports by id and destroys, leaving the adopted service", async () => {
    await wholeLife(stack, emu, { countAfterCluster: true });
  });
});
