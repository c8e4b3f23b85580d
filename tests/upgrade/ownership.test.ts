/**
 * The way out of a stack of release 0.1.0 whose state does not say who made a resource the
 * first `up` after the upgrade replaces or deletes: the stop comes before anything is created
 * where the provider can stop it (a replacement its diff decides), prints the two commands
 * that answer (the stack made it: it is deleted; the stack adopted it: it stays in the cloud,
 * out of state), and each, run as printed, lets the next command through; what state proves
 * (its inputs adopt the service) is acted on without asking. On the model, and on the real CLI
 * with `CLOUDDB_ENGINE=cli` (the fixture through `pulumi stack import`).
 */
import { NotFoundError } from "../../provider/client";
import { expectNoErrors, type UpResult } from "../../harness";
import { writes } from "../../harness/cloud";
import { runPrinted, shellWords } from "../../harness/printedCommands";
import { ADOPTED_KEY } from "../../provider/framework/adoption";
import type { Ownership } from "../../provider/framework/ownership";
import { answerCommands } from "./answers";
import { load, type Loaded } from "./load";
import { upgradeProgram } from "./program";

/** The program of the fixture with the `paused` service renamed: the API cannot rename a service, so this replaces it. */
const renamed = () => upgradeProgram({}, { pausedName: "upgrade-paused-2" });

/** The one error of `r`, which must be about `id`. */
function onlyError(r: UpResult, id: string): string {
  const messages = r.errors.map((e) => e.message).filter((m) => m.includes(id));
  expect(messages.length).toBeGreaterThanOrEqual(1);
  return messages[0];
}

/** Whether the service `id` exists, and its status. */
async function live(f: Loaded, id: string): Promise<string> {
  try {
    return (await f.api.perform("getService", { service: id })).status;
  } catch (e) {
    if (NotFoundError.isInstance(e)) return "gone";
    throw e;
  }
}

/** The ids state holds for the resources named `name` (the old half of a replacement included). */
function idsOf(f: Loaded, name: string): string[] {
  return f.stack
    .resources()
    .filter((r) => r.name === name)
    .map((r) => r.id);
}

describe.each(["made", "adopted"] as const)(
  "a stack of 0.1.0 whose first up renames a service it cannot tell it made: answered %s",
  (answer: Ownership) => {
    let f: Loaded;
    let old: string;
    let message = "";
    beforeAll(async () => {
      f = await load("0.1.0");
      old = f.checkpoint.resources.find((r) => r.name === "paused")!.id;
    });
    afterAll(async () => {
      await f.close();
    });

    it("stops at preview and at up before anything is created, printing a command for each answer", async () => {
      const preview = await f.stack.preview(renamed);
      expect(onlyError(preview, old)).toMatch(
        new RegExp(`Service ${old} is not replaced: its state was written by pulumi-clouddb 0\\.1\\.0`),
      );
      await f.controls.clearRequests();
      message = onlyError(await f.stack.up(renamed), old);
      expect(message).toMatch(/Nothing was created\. Say which, once, then run the command again/);
      expect(message).not.toMatch(/state delete/);
      expect(answerCommands(message)).toEqual({
        made: `pulumi config set --path clouddb:ownership.Service.${old} made`,
        adopted: `pulumi config set --path clouddb:ownership.Service.${old} adopted`,
      });
      expect(writes(await f.controls.requests()).filter((q) => q.method === "POST" || q.method === "DELETE")).toEqual([]);
      expect(idsOf(f, "paused")).toEqual([old]);
      expect((await f.api.perform("listServices")).items.filter((s) => s.name === "upgrade-paused-2")).toEqual([]);
    });

    it(`runs the printed command for "${answer}"; the next up replaces the service, ${answer === "made" ? "deleting" : "keeping"} the old one, and later runs are not affected`, async () => {
      await runPrinted(f.stack, answerCommands(message)[answer]);
      const r = expectNoErrors(await f.stack.up(renamed));
      expect(r.steps.filter((s) => s.name === "paused").map((s) => s.op)).toEqual(expect.arrayContaining(["replace", "delete-replaced"]));
      const [now] = idsOf(f, "paused");
      expect(idsOf(f, "paused")).toEqual([now]);
      expect(now).not.toBe(old);
      expect(f.stack.resource("paused").outputs[ADOPTED_KEY]).toBe(false);
      expect(await live(f, old)).toBe(answer === "made" ? "gone" : "PAUSED");
      if (answer === "adopted")
        expect(f.stack.pluginStderr()).toContain(`Service ${old} is not deleted: you said the stack adopted it (clouddb:ownership)`);

      // The answer stays in the config, about an id no state holds any more: nothing depends on it.
      expect(expectNoErrors(await f.stack.preview(renamed)).steps.filter((s) => s.op !== "same")).toEqual([]);
      expectNoErrors(await f.stack.destroy());
      const adopted = f.checkpoint.resources.find((x) => x.name === "adopted")!.id;
      const left = (await f.api.perform("listServices")).items.map((s) => s.service_id).sort();
      expect(left).toEqual((answer === "made" ? [adopted] : [adopted, old]).sort());
    });
  },
);

describe("a stack of 0.1.0 whose first up replaces a service without a diff (`up --replace`)", () => {
  let f: Loaded;
  afterEach(async () => {
    await f.close();
  });

  it.each(["made", "adopted"] as const)(
    "keeps the old one pending deletion, and stops each up until the printed command answers; then the next up goes through (%s)",
    async (answer) => {
      f = await load("0.1.0");
      const old = f.checkpoint.resources.find((r) => r.name === "paused")!.id;
      const first = onlyError(await f.stack.up(() => upgradeProgram(), { replace: ["paused"] }), old);
      expect(first).toMatch(new RegExp(`Service ${old} is not deleted: its state was written by pulumi-clouddb 0\\.1\\.0`));
      expect(idsOf(f, "paused")).toContain(old);
      expect(idsOf(f, "paused").length).toBe(2);
      // Every later up meets the old half again: the same stop, the same commands.
      const again = onlyError(await f.stack.up(() => upgradeProgram()), old);
      expect(answerCommands(again)).toEqual(answerCommands(first));
      expect(await live(f, old)).toBe("PAUSED");

      await runPrinted(f.stack, answerCommands(first)[answer]);
      expectNoErrors(await f.stack.up(() => upgradeProgram()));
      expect(idsOf(f, "paused")).not.toContain(old);
      expect(idsOf(f, "paused").length).toBe(1);
      expect(await live(f, old)).toBe(answer === "made" ? "gone" : "PAUSED");
      expect(expectNoErrors(await f.stack.preview(() => upgradeProgram())).steps.filter((s) => s.op !== "same")).toEqual([]);
    },
  );

  it.each(["made", "adopted"] as const)(
    "a destroy before any up (its provider runs with the configuration the last up stored) prints the variable to export; exported, the destroy goes through (%s)",
    async (answer) => {
      f = await load("0.1.0", (c) => {
        c.resources.splice(0, c.resources.length, ...c.resources.filter((r) => r.name === "paused"));
      });
      const old = f.checkpoint.resources[0].id;
      const stopped = onlyError(await f.stack.destroy(), old);
      expect(stopped).toMatch(/in the environment .* then run the command again in the same shell/);
      expect(idsOf(f, "paused")).toEqual([old]);
      const [exported, assignment, ...rest] = shellWords(answerCommands(stopped)[answer]);
      expect([exported, rest]).toEqual(["export", []]);
      const [name, value] = [assignment.slice(0, assignment.indexOf("=")), assignment.slice(assignment.indexOf("=") + 1)];
      expect(name).toBe("CLOUDDB_OWNERSHIP");
      const stack = await f.again({ [name]: value });
      expectNoErrors(await stack.destroy());
      expect(stack.resources()).toEqual([]);
      expect(await live(f, old)).toBe(answer === "made" ? "gone" : "PAUSED");
    },
  );
});

describe("a stack of 0.1.0 whose first up stops adopting a service and replaces it", () => {
  let f: Loaded;
  beforeAll(async () => {
    f = await load("0.1.0");
  });
  afterAll(async () => {
    await f.close();
  });

  it("keeps the old one without asking: its state's inputs adopt it", async () => {
    const old = f.checkpoint.resources.find((r) => r.name === "adopted")!.id;
    const program = () => upgradeProgram({}, { adopted: () => ({ name: "upgrade-legacy-2", environment: "PROD" }) });
    const r = expectNoErrors(await f.stack.up(program));
    expect(r.steps.filter((s) => s.name === "adopted").map((s) => s.op)).toEqual(expect.arrayContaining(["replace", "delete-replaced"]));
    expect(idsOf(f, "adopted")).not.toContain(old);
    expect(f.stack.resource("adopted").outputs[ADOPTED_KEY]).toBe(false);
    expect(await live(f, old)).toBe("READY");
    expect(f.stack.pluginStderr()).toContain(`Service ${old} is not deleted: its state's inputs adopt it`);
  });
});
