/**
 * An inline program the harness runs under the real CLI registers its resources with the
 * engine also from code that lost the run's async context (harness/cli/programStore.ts): the
 * Automation API keeps a run's runtime state in an `AsyncLocalStorage` store, and a resource
 * constructed outside it must not be answered by the runtime itself, as in a unit test, while
 * the engine deletes what the program declared. The program below leaves the context on
 * purpose (`AsyncLocalStorage.exit`), as the real-CLI tier saw it happen under load. And a
 * run the engine saw succeed while promises of the program were rejected says so, with their
 * stacks (harness/cli/runs.ts), for a test failing beside it to be read.
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

  it("that succeeded with a promise rejected and never handled is said, with the rejection's stack", async () => {
    const warned = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const r = await cloud.stack.up(() => void Promise.reject(new Error("a failure the engine never saw")));
      expect(r.errors).toEqual([]);
      expect(warned.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(
          /^harness: the command succeeded while 1 promise\(s\) of the program, or of an earlier run's, were rejected with no handler; the engine never saw them:\nError: a failure the engine never saw\n\s+at /,
        ),
      ]);
    } finally {
      warned.mockRestore();
    }
  });
});
