/**
 * A Pulumi YAML program on the native plugin (no SDK: YAML reads the plugin's schema): its
 * whole life under the real CLI (life.ts), as the engine runs by default and with its diffs in
 * parallel (`PULUMI_PARALLEL_DIFF=true`, which README's "How it scales" offers large stacks:
 * each Diff on the engine's step workers, beside the others', its own log shows it).
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

describeWithCli("a YAML program on the native plugin, under the real CLI with PULUMI_PARALLEL_DIFF=true", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    stack = await CliStack.create("native-yaml", emu, { PULUMI_PARALLEL_DIFF: "true" });
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("lives the same life, each resource's Diff run on the engine's step workers", async () => {
    await wholeLife(stack, emu, {
      countAfterCluster: false,
      afterUp: async () => {
        // The engine's log (-v=4): "StepExecutor worker(n): applying step diff on <urn>" for each resource it diffed.
        const preview = await stack.pulumi("preview", "-v=4", "--logtostderr");
        const diffed = [...preview.stderr.matchAll(/applying step diff on \S+::([\w-]+) /g)].map((m) => m[1]);
        expect(diffed).toEqual(expect.arrayContaining(["net", "orders-db", "orders-reads", "legacy"]));
      },
    });
  });
});
