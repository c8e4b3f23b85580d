/**
 * Self-tests of the harness's step rules for `up` and `preview` (README.md, "Rules"): a tiny
 * file-backed provider driven through the real dynamic-provider plugin. Each test names the
 * rule it checks.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { expectNoErrors, printed, UNKNOWN, until } from "../../harness/index";
import { ENGINE, ops, useThingWorld } from "./support";
import { readCloud, Thing } from "./thingProvider";

const world = useThingWorld();

describe("create, same, update", () => {
  it("creates through the plugin and answers the program with the outputs", async () => {
    const { stack, cloudFile } = world();
    const r = expectNoErrors(
      await stack.up(() => {
        const a = new Thing("a", { cloudFile, size: 1 });
        const b = new Thing("b", { cloudFile, size: 2, ref: a.sizeLabel });
        return { label: b.sizeLabel, ref: b.ref };
      }),
    );
    expect(ops(r)).toEqual(["create:a", "create:b"]);
    expect(r.outputs).toEqual({ label: "2GB", ref: "1GB" });
    const a = stack.resource("a");
    expect(a).toMatchObject({ id: "id-1", outputs: { size: 1, sizeLabel: "1GB" }, initErrors: [] });
    expect(typeof a.inputs.__provider).toBe("string");
    expect(stack.resource("b").dependencies).toEqual([a.urn]);
    expect(stack.resource("b").propertyDependencies.ref).toEqual([a.urn]);
    expect(() => stack.resource("nope")).toThrow(/known: a, b/);
  });

  it("D1: calls Diff for every resource and reports same without a write when it says none", async () => {
    const { stack, cloudFile, writes, log } = world();
    const program = (): void => void new Thing("a", { cloudFile, size: 1 });
    expectNoErrors(await stack.up(program));
    const before = writes().length;
    const r = expectNoErrors(await stack.up(program));
    expect(ops(r)).toEqual(["same:a"]);
    expect(writes().length).toBe(before);
    expect(log().filter((l) => l.startsWith("diff:a"))).toHaveLength(1);
  });

  it("C4, D2: Check gets the old inputs, Diff the old outputs, Update keeps the id", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const r = expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 3 })));
    expect(ops(r)).toEqual(["update:a"]);
    expect(log()).toContain("check:a:ref=undefined:olds=1:tag=null");
    expect(log()).toContain("diff:a:id-1:olds.size=1:olds.sizeLabel=1GB"); // outputs, not inputs
    expect(log()).toContain("update:a:id-1:from=1");
    expect(stack.resource("a")).toMatchObject({ id: "id-1", inputs: { size: 3 }, outputs: { sizeLabel: "3GB" } });
  });

  it("D4: a Diff that leaves changes undefined is decided by the engine's own diff of the inputs", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1, diffUnknown: true })));
    expect(ops(expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1, diffUnknown: true }))))).toEqual(["same:a"]);
    expect(ops(expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 2, diffUnknown: true }))))).toEqual(["update:a"]);
  });

  it("D6: replaceOnChanges works only where the engine diffs the inputs itself", async () => {
    const { stack, cloudFile } = world();
    const program = (size: number, diffUnknown: boolean) => () =>
      void new Thing("a", { cloudFile, size, diffUnknown }, { replaceOnChanges: ["size"] });
    expectNoErrors(await stack.up(program(1, false)));
    expect(ops(expectNoErrors(await stack.up(program(2, false))))).toEqual(["update:a"]);
    expectNoErrors(await stack.up(program(2, true)));
    expect(ops(expectNoErrors(await stack.up(program(3, true))))).toEqual(["replace:a", "delete-replaced:a"]);
  });
});

describe("ignoreChanges", () => {
  it("C2, C3: resets full paths, nested included, to the old inputs; a path absent in the old inputs is dropped", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1, tag: { owner: "ann", team: "db" } })));
    const r = expectNoErrors(
      await stack.up(
        () =>
          new Thing("a", { cloudFile, size: 1, ref: "new", tag: { owner: "bob", team: "ops" } }, { ignoreChanges: ["tag.owner", "ref"] }),
      ),
    );
    expect(log()).toContain('check:a:ref=undefined:olds=1:tag={"owner":"ann","team":"ops"}');
    expect(ops(r)).toEqual(["update:a"]);
    expect(stack.resource("a").inputs.tag).toEqual({ owner: "ann", team: "ops" });
    expect(stack.resource("a").inputs).not.toHaveProperty("ref");
  });

  it("C2: does not apply on create", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1, ref: "x" }, { ignoreChanges: ["ref"] })));
    expect(log()).toContain("check:a:ref=x:olds=none:tag=null");
  });
});

describe("check failures", () => {
  it("CF1, CF5: the first failing Check ends the run: nothing else is checked or created", async () => {
    const { stack, cloudFile, indexOf, dir } = world();
    const gate = path.join(dir, "gate");
    const r = await stack.up(async () => {
      new Thing("ok", { cloudFile, size: 1, blockUntil: gate });
      await until("ok's create", async () => indexOf("create-start:ok") >= 0 || undefined);
      new Thing("bad", { cloudFile, size: 0 });
      // Registered once bad's Check is under way: two registrations made one after the other may
      // reach the engine in either order (RG5), so `later` waits to be behind `bad`.
      await until("bad's check", async () => indexOf("check:bad") >= 0 || undefined);
      new Thing("later", { cloudFile, size: 1 });
      setTimeout(() => fs.writeFileSync(gate, ""), 300);
    });
    expect(r.checkFailures).toEqual([{ name: "bad", property: "size", reason: expect.stringMatching(/>= 1, got 0/) }]);
    expect(indexOf("check:later")).toBe(-1);
    expect(stack.resources().map((x) => x.name)).toEqual(["ok"]); // a step already handed to a worker finishes
    expect(printed(r)).toContain(
      "error: pulumi-nodejs:dynamic/test:Thing resource 'bad': property size value {0} has a problem: size must be a number >= 1, got 0",
    );
    expect(() => expectNoErrors(r)).toThrow(/\[bad\] check failure: size/);
  });

  it("CF3: prints the program's value of the property, a secret one in plain text", async () => {
    const { stack, cloudFile } = world();
    const r = await stack.up(() => void new Thing("s", { cloudFile, size: 1, secretInput: pulumi.secret("abc") }));
    // Engines up to 3.260 print the value as Go formats it, in plain text; 3.274 prints `[secret]` (CF3).
    const shown = ENGINE === "cli" ? "{[secret]}" : "{&{{abc}}}";
    expect(printed(r)).toContain(`property secretInput value ${shown} has a problem: secretInput is too short`);
  });

  it("CF4: masks the values of secret config in everything it prints", async () => {
    const { stack, cloudFile } = world();
    stack.setConfig("test:token", "abc", { secret: true });
    const r = await stack.up(() => void new Thing("s", { cloudFile, size: 1, secretInput: pulumi.secret("abc") }));
    expect(printed(r)).toContain(`property secretInput value ${ENGINE === "cli" ? "{[secret]}" : "{&{{[secret]}}}"} has a problem`);
    expect(printed(r)).not.toContain("abc");
  });
});

describe("initialization errors", () => {
  it("D5: keeps a resource whose create failed with an id and updates it on the next up although Diff says none", async () => {
    const { stack, cloudFile, log } = world();
    const program = (): void => void new Thing("x", { cloudFile, size: 1, failInit: true });
    const r1 = await stack.up(program);
    expect(r1.errors).toEqual([expect.objectContaining({ name: "x", message: expect.stringContaining("x is not ready") })]);
    expect(stack.resource("x")).toMatchObject({
      id: "id-1",
      initFailed: true,
      initErrors: ["x is not ready"],
      outputs: { sizeLabel: "1GB" },
    });
    const r2 = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1 })));
    expect(log().filter((l) => l.startsWith("diff:x"))).toHaveLength(1);
    expect(ops(r2)).toEqual(["update:x"]);
    expect(stack.resource("x").initErrors).toEqual([]);
  });

  it("X4: a partial failure of an Update stores the old inputs", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1 })));
    await stack.up(() => new Thing("x", { cloudFile, size: 2, failUpdate: true }));
    expect(stack.resource("x").inputs.size).toBe(1);
  });
});

describe("a failed step", () => {
  it("X1: stops the run: no new step starts, steps under way finish, no deletes", async () => {
    const { stack, cloudFile, indexOf, dir } = world();
    const gate = path.join(dir, "gate");
    const slowGate = path.join(dir, "slow-gate");
    expectNoErrors(await stack.up(() => new Thing("old", { cloudFile, size: 1 })));
    const r = await stack.up(async () => {
      // slow is busy until its gate opens, after the later registrations: it is under way when x
      // fails however loaded the machine (a fixed 600 ms could end before x failed).
      new Thing("slow", { cloudFile, size: 1, blockUntil: slowGate });
      const x = new Thing("x", { cloudFile, size: 1, failPlain: true, blockUntil: gate });
      await until("both creates", async () => (indexOf("create-start:slow") >= 0 && indexOf("create-start:x") >= 0) || undefined);
      fs.writeFileSync(gate, "");
      await new Promise((r) => setTimeout(r, 1_000)); // x fails at once, slow is still busy
      new Thing("dep", { cloudFile, size: 1, ref: x.sizeLabel });
      new Thing("late", { cloudFile, size: 1 });
      fs.writeFileSync(slowGate, "");
    });
    expect(r.errors.map((e) => e.name)).toEqual(["x"]);
    expect(r.errors[0].message).toMatch(/cannot create x/);
    expect(indexOf("check:dep")).toBe(-1);
    expect(indexOf("check:late")).toBe(-1);
    expect(indexOf("delete:old")).toBe(-1);
    expect(
      stack
        .resources()
        .map((x) => x.name)
        .sort(),
    ).toEqual(["old", "slow"]);
  });
});

describe("replacement", () => {
  it("R3, R5: create-before-delete: a second Check without olds, the new one first, the old one deleted with the deletes", async () => {
    const { stack, cloudFile, indexOf, log } = world();
    const program = (replaceKey: string, size: number) => (): void => {
      const x = new Thing("x", { cloudFile, size: 1, replaceKey });
      new Thing("y", { cloudFile, size }, { dependsOn: [x] });
    };
    expectNoErrors(await stack.up(program("one", 1)));
    const r = expectNoErrors(await stack.up(program("two", 2)));
    expect(ops(r)).toEqual(["replace:x", "update:y", "delete-replaced:x"]);
    expect(log().filter((l) => l.startsWith("check:x"))).toEqual([
      "check:x:ref=undefined:olds=none:tag=null", // first up
      "check:x:ref=undefined:olds=1:tag=null", // with the old inputs
      "check:x:ref=undefined:olds=none:tag=null", // the replacement's own
    ]);
    expect(indexOf("create:x:id-3")).toBeLessThan(indexOf("update:y:id-2"));
    expect(indexOf("update:y:id-2")).toBeLessThan(indexOf("delete:x:id-1"));
    expect(stack.resources().map((x) => `${x.name}:${x.id}`)).toEqual(["x:id-3", "y:id-2"]);
  });

  it("R5: a replacement whose create fails without an id leaves the old one live, and the next up replaces again", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one" })));
    const r = await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", failPlain: true }));
    expect(r.errors).toHaveLength(1);
    expect(stack.resources().map((x) => `${x.name}:${x.id}:${x.pendingDelete ?? false}`)).toEqual(["x:id-1:false"]);
    const r2 = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two" })));
    expect(ops(r2)).toEqual(["replace:x", "delete-replaced:x"]);
  });

  it("R5: a replacement that fails with an id keeps both halves, and the next up deletes the old one", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one" })));
    await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", failInit: true }));
    expect(stack.resources().map((x) => `${x.id}:${x.pendingDelete ?? false}`)).toEqual(["id-2:false", "id-1:true"]);
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two" })));
    expect(log()).toContain("delete:x:id-1");
    expect(stack.resources().map((x) => x.id)).toEqual(["id-2"]);
  });

  it.each([
    ["the provider's diff", { dbr: true }, {}],
    ["the resource option", {}, { deleteBeforeReplace: true }],
  ])("R4, R6: delete-before-replace when %s asks", async (_why, args, opts) => {
    const { stack, cloudFile, indexOf } = world();
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one", ...args }, opts)));
    const r = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", ...args }, opts)));
    expect(ops(r)).toEqual(["delete-replaced:x", "replace:x"]);
    expect(indexOf("delete:x:id-1")).toBeGreaterThan(-1);
    expect(indexOf("delete:x:id-1")).toBeLessThan(indexOf("create-start:x:id-2"));
    expect(stack.resource("x").id).toBe("id-2");
  });

  it("R4: deleteBeforeReplace: false overrides the provider's true", async () => {
    const { stack, cloudFile, indexOf } = world();
    const opts = { deleteBeforeReplace: false };
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one", dbr: true }, opts)));
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", dbr: true }, opts)));
    expect(indexOf("create:x:id-2")).toBeLessThan(indexOf("delete:x:id-1"));
  });

  it("R6: delete-before-replace deletes first the dependents that would be replaced through a property dependency", async () => {
    const { stack, cloudFile, indexOf } = world();
    const program = (key: string) => (): void => {
      const x = new Thing("x", { cloudFile, size: 1, replaceKey: key, dbr: true });
      new Thing("uses", { cloudFile, size: 1, ref: x.token, refReplaces: true });
      new Thing("after", { cloudFile, size: 1 }, { dependsOn: [x] }); // dependsOn alone never condemns
    };
    expectNoErrors(await stack.up(program("one")));
    const r = expectNoErrors(await stack.up(program("two")));
    expect(indexOf("delete:uses:id-2")).toBeLessThan(indexOf("delete:x:id-1"));
    expect(indexOf("delete:x:id-1")).toBeLessThan(indexOf("create-start:x:id-4"));
    expect(indexOf("delete:after")).toBe(-1);
    expect(ops(r).sort()).toEqual(["delete-replaced:uses", "delete-replaced:x", "replace:uses", "replace:x", "same:after"]);
    expect(
      stack
        .resources()
        .map((x) => x.name)
        .sort(),
    ).toEqual(["after", "uses", "x"]);
  });

  it("R6: when the re-create fails after the delete, the old one stays pending replacement and is not deleted twice", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one", dbr: true })));
    const failed = await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", dbr: true, failPlain: true }));
    // What the engine and the cloud saw go with the state, so that a failure tells which step went otherwise.
    expect({
      errors: failed.errors.map((e) => e.message),
      calls: log().filter((l) => /^(create|delete)/.test(l)),
      state: stack.resources().map((x) => `${x.id}:${x.pendingReplacement ?? false}`),
    }).toEqual({
      errors: [expect.stringContaining("cannot create x")],
      calls: ["create-start:x:id-1", "create:x:id-1", "delete-start:x:id-1", "delete:x:id-1", "create-start:x:id-2"],
      state: ["id-1:true"],
    });
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", dbr: true })));
    expect(log().filter((l) => l.startsWith("delete:x:id-1"))).toHaveLength(1);
    expect(stack.resources().map((x) => x.id)).toEqual(["id-3"]);
  });
});

describe("protect and retainOnDelete", () => {
  it("F1: refuses a replacement only when both the program and the state protect the resource", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(await stack.up(() => new Thing("p", { cloudFile, size: 1, replaceKey: "a" }, { protect: true })));
    const refused = await stack.up(() => new Thing("p", { cloudFile, size: 1, replaceKey: "b" }, { protect: true }));
    expect(refused.errors[0].message).toMatch(/unable to replace resource .* marked for protection/s);
    const r = expectNoErrors(await stack.up(() => new Thing("p", { cloudFile, size: 1, replaceKey: "b" })));
    expect(ops(r)).toEqual(["replace:p", "delete-replaced:p"]); // the old half's delete skips the protect check (F5)
  });

  it("F4, F6: refuses to delete a protected resource; the other deletes go on", async () => {
    const { stack, cloudFile, indexOf } = world();
    expectNoErrors(
      await stack.up(() => {
        new Thing("p", { cloudFile, size: 1 }, { protect: true });
        new Thing("q", { cloudFile, size: 1 });
      }),
    );
    const r = await stack.up(() => undefined);
    expect(r.errors.map((e) => e.message)).toEqual([expect.stringMatching(/cannot be deleted\nbecause it is protected/)]);
    expect(indexOf("delete:p")).toBe(-1);
    expect(indexOf("delete:q")).toBeGreaterThan(-1);
    expect(stack.resources().map((x) => x.name)).toEqual(["p"]);
  });

  it("G1: retainOnDelete: no Delete call, the resource leaves the state", async () => {
    const { stack, cloudFile, indexOf } = world();
    expectNoErrors(await stack.up(() => new Thing("r", { cloudFile, size: 1 }, { retainOnDelete: true })));
    const r = expectNoErrors(await stack.up(() => undefined));
    expect(ops(r)).toEqual(["delete:r"]);
    expect(indexOf("delete-start:r")).toBe(-1);
    expect(Object.keys(readCloud(cloudFile).items)).toEqual(["id-1"]);
    expect(stack.resources()).toEqual([]);
  });
});

describe("parallelism and deletes", () => {
  it("PA1, PA2: at most --parallel steps at once; Check one registration at a time", async () => {
    const { stack, cloudFile, log } = world();
    const r = expectNoErrors(
      await stack.up(
        () => {
          for (let i = 0; i < 6; i++) new Thing(`t${i}`, { cloudFile, size: 1, slowMs: 150, slowCheckMs: 20 });
        },
        { parallel: 2 },
      ),
    );
    expect(r.steps).toHaveLength(6);
    expect(readCloud(cloudFile).maxInflight).toBe(2);
    const checks = log().filter((l) => l.startsWith("check"));
    for (let i = 0; i < checks.length; i += 2) {
      expect(checks[i]).toMatch(/^check:/);
      expect(checks[i + 1]).toMatch(/^check-end:/); // never two Checks under way at once
    }
  });

  it("DL3: deletes in waves by dependency height, each wave done before the next", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(
      await stack.up(() => {
        const a = new Thing("a", { cloudFile, size: 1 });
        const b = new Thing("b", { cloudFile, size: 1, ref: a.sizeLabel });
        new Thing("c", { cloudFile, size: 1, ref: b.sizeLabel, slowMs: 200 });
        new Thing("d", { cloudFile, size: 1, ref: a.sizeLabel });
      }),
    );
    expectNoErrors(await stack.destroy());
    const deletes = log()
      .filter((l) => /^delete(-start)?:/.test(l))
      .map((l) => l.split(":").slice(0, 2).join(":"));
    // waves [c], [b, d], [a]: d waits for the slow c although it depends only on a
    expect(deletes.slice(0, 2)).toEqual(["delete-start:c", "delete:c"]);
    expect(deletes.slice(2, 6).sort()).toEqual(["delete-start:b", "delete-start:d", "delete:b", "delete:d"]);
    expect(deletes.slice(6)).toEqual(["delete-start:a", "delete:a"]);
    expect(stack.resources()).toEqual([]);
  });
});

describe("preview", () => {
  it("PV1-PV4: sends no writes, echoes the inputs as outputs and gives dependents unknown values", async () => {
    const { stack, cloudFile, writes, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const before = writes();
    const stateBefore = stack.resources();
    const r = expectNoErrors(
      await stack.preview(() => {
        const a = new Thing("a", { cloudFile, size: 2 });
        const b = new Thing("b", { cloudFile, size: 1, ref: a.sizeLabel });
        new Thing("c", { cloudFile, size: 1, ref: b.id });
        new Thing("d", { cloudFile, size: 1, ref: a.key });
        return { label: b.sizeLabel };
      }),
    );
    expect(ops(r).sort()).toEqual(["create:b", "create:c", "create:d", "update:a"]);
    expect(writes()).toEqual(before);
    expect(log()).toContain(`check:b:ref=${UNKNOWN}:olds=none:tag=null`);
    expect(log()).toContain(`check:c:ref=${UNKNOWN}:olds=none:tag=null`);
    expect(log()).toContain("check:d:ref=a:olds=none:tag=null");
    expect(r.outputs.label).toBe(UNKNOWN);
    expect(stack.resources()).toEqual(stateBefore);
  });
});

describe("secrets", () => {
  it("S1-S3: the provider gets plain values; additionalSecretOutputs and secret inputs stay secret", async () => {
    const { stack, cloudFile } = world();
    const r = expectNoErrors(
      await stack.up(() => {
        const s = new Thing("s", { cloudFile, size: 1, secretInput: pulumi.secret("hunter2") }, { additionalSecretOutputs: ["token"] });
        return { token: s.token, label: s.sizeLabel };
      }),
    );
    const s = stack.resource("s");
    expect(s.outputs.token).toBe("tok-id-1-s3cr3t");
    expect(s.inputs.secretInput).toBe("hunter2");
    expect(s.secretOutputs.sort()).toEqual(["secretInput", "token"]);
    expect(r.secretOutputNames).toEqual(["token"]);
    const plain = stack.plaintextState();
    expect(plain).not.toContain("tok-id-1-s3cr3t");
    expect(plain).not.toContain("hunter2");
    expect(plain).toContain("1GB");
  });
});

describe("components", () => {
  it("names child resources after their parent's type", async () => {
    const { stack, cloudFile } = world();
    class Pair extends pulumi.ComponentResource {
      constructor(name: string) {
        super("test:index:Pair", name, {}, {});
        new Thing(`${name}-left`, { cloudFile, size: 1 }, { parent: this });
        this.registerOutputs({});
      }
    }
    expectNoErrors(await stack.up(() => new Pair("p")));
    expect(stack.resource("p-left").urn).toBe("urn:pulumi:test::test-project::test:index:Pair$pulumi-nodejs:dynamic/test:Thing::p-left");
  });
});
