/**
 * A stack of release 0.1.0 moved to the native plugin in an `up` that also replaces a service
 * (tests/native/cli/move.ts: the fixture through `pulumi stack import`, the native program,
 * `pulumi-clouddb` still installed beside it, as the README's move says). The old half is
 * the dynamic providers' to delete, in a process configured as their last `up` left the stack
 * (the engine loads it from state), which `pulumi config set` cannot reach: so the plugin stops
 * a replacement it can see (a diff) before anything is created, and both stop with the
 * variable to export; the commands, run as printed in bash, let the next `up` through (made:
 * deleted; adopted: left in the cloud, out of state), and nothing is left to change.
 */
import { NotFoundError } from "../../../provider/client";
import type { Ownership } from "../../../provider/framework/ownership";
import { answerCommands } from "../../upgrade/answers";
import { changes, importedFixture, MOVE, type ImportedFixture } from "./move";
import { describeWithCli, run, type CliStack, type Ran } from "./support";

/** The service `id`'s status, or "gone". */
async function live(f: ImportedFixture, id: string): Promise<string> {
  try {
    return (await f.api.perform("getService", { service: id })).status;
  } catch (e) {
    if (NotFoundError.isInstance(e)) return "gone";
    throw e;
  }
}

/** Runs `commandLine` in bash in the program's folder, as the user types it there. */
function shell(stack: CliStack, commandLine: string): Promise<Ran> {
  return run("bash", ["-c", commandLine], { cwd: stack.dir, env: stack.env });
}

/** The message of a failed command about resource `id`, as the CLI printed it (its lines joined back). */
function stopped(r: Ran, id: string): string {
  expect(r.code).not.toBe(0);
  const text = `${r.stdout}\n${r.stderr}`.replace(/\n\s+/g, " ");
  const at = text.indexOf(`${id} is not `);
  expect(at).toBeGreaterThan(0);
  return text.slice(text.lastIndexOf("Service", at), text.indexOf("`.", at) + 2);
}

/** The state's resources named `name`, as `<type> <id>`. */
async function named(stack: CliStack, name: string): Promise<string[]> {
  return (await stack.exported()).resources.filter((r) => r.urn.endsWith(`::${name}`)).map((r) => `${r.type} ${r.id}`);
}

describeWithCli("a stack of 0.1.0 moved to the native plugin in an up that replaces a service", () => {
  let f: ImportedFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it.each(["made", "adopted"] as const)(
    "a rename: stops before anything is created, printing the variable to export; exported as printed, the next up moves the stack and replaces it (%s)",
    async (answer: Ownership) => {
      f = await importedFixture(`move-rename-${answer}`);
      const old = f.checkpoint.resources.find((r) => r.name === "paused")!.id;
      const stack = await f.program({ edit: (s) => s.replace('"upgrade-paused"', '"upgrade-paused-2"'), withDynamicProviders: true });
      await f.control.clearRequests();
      const message = stopped(await stack.pulumiMayFail("up", "--yes", "--skip-preview"), old);
      expect(message).toMatch(
        new RegExp(
          `^Service ${old} is not replaced: its state, written by pulumi-clouddb 0\\.1\\.0 and not moved to the native plugin yet`,
        ),
      );
      expect((await f.control.requests()).filter((q) => q.method === "POST" || q.method === "DELETE")).toEqual([]);
      expect(await named(stack, "paused")).toEqual([`pulumi-nodejs:dynamic/clouddb:Service ${old}`]);

      const command = answerCommands(message)[answer];
      expect(command).toBe(`export CLOUDDB_OWNERSHIP='{"Service":{"${old}":"${answer}"}}'`);
      const r = await shell(stack, `${command}\npulumi up --yes --skip-preview`);
      expect(r.code).toBe(0);
      const [now] = await named(stack, "paused");
      expect(await named(stack, "paused")).toEqual([now]);
      expect(now).toMatch(/^clouddb:index:Service /);
      expect(now).not.toContain(old);
      expect(await live(f, old)).toBe(answer === "made" ? "gone" : "PAUSED");
      expect((await stack.exported()).resources.filter((x) => x.type.includes("dynamic"))).toEqual([]);
      // The variable was that command's alone: later commands run without it, and find nothing to do.
      expect((await changes(stack)).filter((s) => !MOVE.test(s))).toEqual([]);
    },
  );

  it("a replacement of the adopted service without a diff (`pulumi state taint`): the dynamic providers stop on the old half, printing the variable; exported as printed (adopted), the next up keeps it", async () => {
    f = await importedFixture("move-taint-adopted");
    const adopted = f.checkpoint.resources.find((r) => r.name === "adopted")!;
    const stack = await f.program({ withDynamicProviders: true });
    // (`--replace` cannot name it in this up: state knows it by its dynamic type's URN, the program by the native one.)
    await stack.pulumi("state", "taint", adopted.urn, "--yes");
    const message = stopped(await stack.pulumiMayFail("up", "--yes", "--skip-preview"), adopted.id);
    expect(message).toMatch(new RegExp(`^Service ${adopted.id} is not deleted: its state was written by pulumi-clouddb 0\\.1\\.0`));
    const command = answerCommands(message).adopted;
    expect(command).toBe(`export CLOUDDB_OWNERSHIP='{"Service":{"${adopted.id}":"adopted"}}'`);
    // Stuck until answered: the old half waits for deletion, and every up meets it again.
    expect(stopped(await stack.pulumiMayFail("up", "--yes", "--skip-preview"), adopted.id)).toBe(message);

    expect((await shell(stack, `${command}\npulumi up --yes --skip-preview`)).code).toBe(0);
    expect(await named(stack, "adopted")).toEqual([`clouddb:index:Service ${adopted.id}`]);
    expect(await live(f, adopted.id)).toBe("READY");
    expect((await changes(stack)).filter((s) => !MOVE.test(s))).toEqual([]);
  });
});
