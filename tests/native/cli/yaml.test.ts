/**
 * A Pulumi YAML program on the native plugin (no SDK: YAML reads the plugin's schema): its
 * whole life under the real CLI (life.ts), as the engine runs by default and with its diffs in
 * parallel (`PULUMI_PARALLEL_DIFF=true`, which README's "How it scales" offers large stacks:
 * each Diff on the engine's step workers, beside the others', its own log shows it).
 */
import type { RunningEmulator } from "../../../emulator";
import { diffedOnStepWorkers, PARALLEL_DIFF, STEP_LOG_ARGS } from "../../../harness/cli/parallelDiff";
import { wholeLife } from "./life";
import { CliStack, describeWithCli, emulator } from "./support";

/** The engine's two ways: what each adds to the suite's title and the CLI's environment, the life's test, and what it checks after the first `up`. */
const ENGINES = [
  {
    title: "",
    env: {},
    test: "previews, deploys, replaces on replaceOnChanges, refreshes drift, imports by id and destroys, leaving the adopted service",
    afterUp: undefined,
  },
  {
    title: " with PULUMI_PARALLEL_DIFF=true",
    env: PARALLEL_DIFF,
    test: "lives the same life, each resource's Diff run on the engine's step workers",
    afterUp: async (stack: CliStack): Promise<void> => {
      const preview = await stack.pulumi("preview", ...STEP_LOG_ARGS);
      expect(diffedOnStepWorkers(preview.stderr)).toEqual(expect.arrayContaining(["legacy", "net", "orders-db", "orders-reads"]));
    },
  },
] as const;

for (const engine of ENGINES) {
  describeWithCli(`a YAML program on the native plugin, under the real CLI${engine.title}`, () => {
    let emu: RunningEmulator;
    let stack: CliStack;
    beforeAll(async () => {
      emu = await emulator();
      stack = await CliStack.create("native-yaml", emu, engine.env);
    });
    afterAll(async () => {
      stack?.close();
      await emu?.close();
    });

    it(engine.test, async () => {
      await wholeLife(stack, emu, { countAfterCluster: false, afterUp: engine.afterUp && (() => engine.afterUp(stack)) });
    });
  });
}
