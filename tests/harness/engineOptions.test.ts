/**
 * Self-tests of the harness's rules for Pulumi's options and flags (README.md, "Rules"):
 * nested `ignoreChanges` and `replaceOnChanges` paths, init errors under `replaceOnChanges`,
 * a protect refusal in a preview, `aliases`, targeted replace (`--replace`, `state taint`),
 * `--target` and `--continue-on-error`. Each test names the rule it checks.
 */
import * as pulumi from "@pulumi/pulumi";
import { expectNoErrors } from "../../harness/index";
import { ops, useThingWorld } from "./support";
import { readCloud, Thing } from "./thingProvider";

const world = useThingWorld();

describe("paths", () => {
  it("C5: a nested ignoreChanges path whose parent the old inputs lack deletes the new value", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    expectNoErrors(
      await stack.up(() => new Thing("a", { cloudFile, size: 1, tag: { owner: "ann", team: "db" } }, { ignoreChanges: ["tag.owner"] })),
    );
    expect(
      log()
        .filter((l) => l.startsWith("check:a"))
        .pop(),
    ).toBe('check:a:ref=undefined:olds=1:tag={"team":"db"}');
  });

  it("D7: replaceOnChanges paths match the engine's detailed diff by prefix, nested included", async () => {
    const { stack, cloudFile } = world();
    const program = (owner: string, paths: string[]) => () =>
      void new Thing("a", { cloudFile, size: 1, diffUnknown: true, tag: { owner, team: "db" } }, { replaceOnChanges: paths });
    expectNoErrors(await stack.up(program("ann", ["tag.team"])));
    expect(ops(expectNoErrors(await stack.up(program("bob", ["tag.team"]))))).toEqual(["update:a"]);
    expect(ops(expectNoErrors(await stack.up(program("cy", ["tag.owner"]))))).toEqual(["replace:a", "delete-replaced:a"]);
    expect(ops(expectNoErrors(await stack.up(program("dee", ["tag"]))))).toEqual(["replace:a", "delete-replaced:a"]);
  });

  it("D8: replaceOnChanges `*` replaces a resource with init errors, also when Diff says there are changes", async () => {
    const { stack, cloudFile } = world();
    await stack.up(() => new Thing("x", { cloudFile, size: 1, failInit: true }));
    expect(stack.resource("x").initFailed).toBe(true);
    const r = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 2 }, { replaceOnChanges: ["*"] })));
    expect(ops(r)).toEqual(["replace:x", "delete-replaced:x"]);
  });
});

describe("protect in a preview", () => {
  it("F8: a refused replacement is recorded and the preview goes on", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(await stack.up(() => new Thing("p", { cloudFile, size: 1, replaceKey: "a" }, { protect: true })));
    const r = await stack.preview(() => {
      new Thing("p", { cloudFile, size: 1, replaceKey: "b" }, { protect: true });
      new Thing("q", { cloudFile, size: 1 });
    });
    expect(r.errors.map((e) => e.message)).toEqual([expect.stringMatching(/unable to replace resource .* marked for protection/s)]);
    expect(ops(r)).toEqual(expect.arrayContaining(["replace:p", "create:q"]));
  });
});

describe("aliases", () => {
  it("AL1: a renamed resource with an alias to its old name is the same resource", async () => {
    const { stack, cloudFile, writes } = world();
    expectNoErrors(await stack.up(() => new Thing("old-name", { cloudFile, size: 1 })));
    const before = writes().length;
    const r = expectNoErrors(await stack.up(() => new Thing("new-name", { cloudFile, size: 1 }, { aliases: [{ name: "old-name" }] })));
    expect(ops(r)).toEqual(["same:new-name"]);
    expect(writes().length).toBe(before);
    expect(stack.resources().map((x) => [x.name, x.id])).toEqual([["new-name", "id-1"]]);
    expect(stack.resource("new-name").urn).toMatch(/::new-name$/);
  });
});

describe("targeted replace", () => {
  it("TR1: --replace: Check without olds, no Diff, no second Check, create-before-delete", async () => {
    const { stack, cloudFile, log } = world();
    const program = (): void => void new Thing("a", { cloudFile, size: 1 }, { ignoreChanges: ["size"] });
    expectNoErrors(await stack.up(program));
    const mark = log().length;
    const r = expectNoErrors(await stack.up(program, { replace: ["a"] }));
    expect(ops(r)).toEqual(["replace:a", "delete-replaced:a"]);
    const calls = log().slice(mark);
    expect(calls.filter((l) => l.startsWith("check:a"))).toEqual(["check:a:ref=undefined:olds=none:tag=null"]);
    expect(calls.filter((l) => l.startsWith("diff:"))).toEqual([]);
    expect(calls.indexOf("create:a:id-2")).toBeLessThan(calls.indexOf("delete:a:id-1"));
  });

  it("TR2: pulumi state taint: the next up replaces the resource once", async () => {
    const { stack, cloudFile } = world();
    const program = (): void => void new Thing("a", { cloudFile, size: 1 });
    expectNoErrors(await stack.up(program));
    stack.taint("a");
    expect(ops(expectNoErrors(await stack.up(program)))).toEqual(["replace:a", "delete-replaced:a"]);
    expect(ops(expectNoErrors(await stack.up(program)))).toEqual(["same:a"]);
    expect(stack.resource("a").id).toBe("id-2");
  });

  it("TR3: --replace with deleteBeforeReplace deletes first", async () => {
    const { stack, cloudFile, indexOf } = world();
    const program = (): void => void new Thing("a", { cloudFile, size: 1 }, { deleteBeforeReplace: true });
    expectNoErrors(await stack.up(program));
    expect(ops(expectNoErrors(await stack.up(program, { replace: ["a"] })))).toEqual(["delete-replaced:a", "replace:a"]);
    expect(indexOf("delete:a:id-1")).toBeLessThan(indexOf("create:a:id-2"));
  });
});

describe("--target", () => {
  it("TG1: only targeted resources change: others are same with their old state, not created, not deleted", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(
      await stack.up(() => {
        new Thing("a", { cloudFile, size: 1 });
        new Thing("b", { cloudFile, size: 1 });
        new Thing("gone", { cloudFile, size: 1 });
      }),
    );
    const mark = log().length;
    const r = expectNoErrors(
      await stack.up(
        () => {
          new Thing("a", { cloudFile, size: 2 });
          new Thing("b", { cloudFile, size: 2 });
          new Thing("new", { cloudFile, size: 1 });
        },
        { target: ["b"] },
      ),
    );
    // Untargeted: `a` same, `new` not created and `gone` not deleted, both shown as same.
    expect(ops(r).sort()).toEqual(["same:a", "same:gone", "same:new", "update:b"]);
    expect(
      log()
        .slice(mark)
        .filter((l) => /^(check|diff):a/.test(l)),
    ).toEqual([]);
    expect(stack.resource("a").inputs.size).toBe(1);
    expect(
      stack
        .resources()
        .map((x) => x.name)
        .sort(),
    ).toEqual(["a", "b", "gone"]);
  });
});

describe("--continue-on-error", () => {
  it("CE1: a failed step stops only what depends on it; independent steps and deletes go on", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(
      await stack.up(() => {
        new Thing("a", { cloudFile, size: 1 });
        new Thing("b", { cloudFile, size: 1 });
        new Thing("gone", { cloudFile, size: 1 });
      }),
    );
    const r = await stack.up(
      () => {
        const a = new Thing("a", { cloudFile, size: 2, failUpdate: true });
        new Thing("b", { cloudFile, size: 2 });
        new Thing("c", { cloudFile, size: 1, ref: a.sizeLabel });
        return { done: pulumi.output(true) };
      },
      { continueOnError: true },
    );
    expect(r.errors.map((e) => e.name)).toEqual(expect.arrayContaining(["a"]));
    expect(ops(r)).toEqual(expect.arrayContaining(["update:b", "delete:gone"]));
    expect(ops(r)).not.toContain("create:c");
    expect(
      Object.values(readCloud(cloudFile).items)
        .map((i) => i.key)
        .sort(),
    ).toEqual(["a", "b"]); // in the order the steps ran, which parallel steps do not fix
  });
});

describe("a program that waits on what never registered", () => {
  it("PF2: ends at its first unhandled rejection, as the language host does, and the run reports it", async () => {
    const { stack, cloudFile } = world();
    const r = await stack.preview(() => {
      const a = new Thing("a", { cloudFile, size: 0 });
      const b = new Thing("b", { cloudFile, size: 1, ref: a.sizeLabel });
      return { label: b.sizeLabel };
    });
    expect(r.checkFailures.map((f) => f.name)).toEqual(["a"]);
    // The run ends (it used to wait forever on b), and says why: the check failure; newer SDKs
    // also report the dependent's serialization, rejected with it (3.248 as an unhandled
    // rejection, 3.276 through the stack's outputs).
    for (const e of r.errors) expect(e.message).toMatch(/^(unhandled rejection|program failed): error serializing property "ref"/);
  });
});
