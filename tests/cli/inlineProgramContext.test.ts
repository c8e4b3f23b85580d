/**
 * An inline program the harness runs under the real CLI registers its resources with the
 * engine also from code that lost the run's async context (harness/cli/programStore.ts): the
 * Automation API keeps a run's runtime state in an `AsyncLocalStorage` store, and a resource
 * constructed outside it must not be answered by the runtime itself, as in a unit test, while
 * the engine deletes what the program declared. The program below leaves the context on
 * purpose (`AsyncLocalStorage.exit`), as the real-CLI tier saw it happen under load. And a
 * run the engine saw succeed while the program's promises were rejected is reported as such
 * (harness/cli/runs.ts), not passed.
 */
import type { AsyncLocalStorage } from "async_hooks";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { describeWithCli } from "../../harness/cli/tools";
import { startCloud, type Cloud } from "../../harness/cloud";

/** Runs `callback` outside the run's async context (the runtime's store: @pulumi/pulumi runtime/state.ts declares the global). */
function outsideRunContext(callback: () => void): void {
  const storage = (globalThis as { asyncLocalStorage?: AsyncLocalStorage<unknown> }).asyncLocalStorage;
  if (storage === undefined) throw new Error("@pulumi/pulumi keeps no global asyncLocalStorage: the runtime this test knows changed");
  storage.exit(callback);
}

describeWithCli("an inline program under the CLI", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ engine: "cli" });
  });
  afterAll(async () => {
    await cloud?.close();
  });

  it("registers with the engine a resource constructed where the run's async context was lost", async () => {
    const program = () => {
      new clouddb.Vpc("kept", { name: "kept", cidr: "10.1.0.0/16", regionCode: "us-east-1" });
      outsideRunContext(() => void new clouddb.Vpc("lost", { name: "lost", cidr: "10.2.0.0/16", regionCode: "us-east-1" }));
    };
    const made = expectNoErrors(await cloud.stack.up(program));
    expect(
      made.steps
        .filter((s) => s.op === "create")
        .map((s) => s.name)
        .sort(),
    ).toEqual(["kept", "lost"]);
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.name).sort()).toEqual(["kept", "lost"]);
    // The next up of the same program changes nothing: nothing the program declared is deleted.
    const again = expectNoErrors(await cloud.stack.up(program));
    expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
  });

  it("that succeeded with a promise rejected and never handled is reported, not passed", async () => {
    const r = await cloud.stack.up(() => void Promise.reject(new Error("a failure the engine never saw")));
    expect(r.errors.map((e) => e.message)).toEqual([
      "harness: the command succeeded, but 1 of the program's promises were rejected with no handler, which the engine " +
        "never saw; the first: a failure the engine never saw",
    ]);
  });
});
