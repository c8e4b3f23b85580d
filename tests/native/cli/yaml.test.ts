/**
 * A Pulumi YAML program on the native plugin (no SDK: YAML reads the plugin's schema): its
 * whole life under the real CLI (life.ts).
 */
import type { RunningEmulator } from "../../../emulator";
import { wholeLife } from "./life";
import { CliStack, describeWithCli, emulator } from "./support";

describeWithCli("a YAML program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    stack = await CliStack.create("native-yaml", emu);
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("previews, deploys, replaces on replaceOnChanges, refreshes drift, imports by id and destroys, leaving the adopted service", async () => {
    await wholeLife(stack, emu, { countAfterCluster: false });
  });
});
