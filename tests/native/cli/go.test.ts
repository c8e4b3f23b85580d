/**
 * A Go program on the native plugin, through the SDK generated from schema.json
 * (`sdk-native/go/clouddb`, by a `replace` in the program's go.mod): its whole life under the
 * real CLI (life.ts). Go's module and build caches are the machine's (warm after the first run).
 */
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../harness";
import { wholeLife } from "./life";
import { CliStack, describeWithCli, emulator, ok } from "./support";

const GO_ENV = { GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod", GOWORK: "off" };

describeWithCli("a Go program on the native plugin, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    stack = await CliStack.create("native-go", emu, GO_ENV);
    const sdk = path.join(REPO_ROOT, "sdk-native", "go", "clouddb");
    await ok("go", ["mod", "edit", `-replace=github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb=${sdk}`], {
      cwd: stack.dir,
      env: stack.env,
    });
  });
  afterAll(async () => {
    stack?.close();
    await emu?.close();
  });

  it("previews, deploys, replaces on replaceOnChanges, refreshes drift, imports by id and destroys, leaving the adopted service", async () => {
    await wholeLife(stack, emu, { countAfterCluster: true });
  });
});
