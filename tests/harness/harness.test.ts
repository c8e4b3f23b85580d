/**
 * Self-tests of the harness: a tiny file-backed dynamic provider driven through the real
 * dynamic-provider plugin process, checking the engine's step rules.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { expectNoErrors, TestStack, UNKNOWN } from "./index";
import { newCloud, readCloud, Thing, writeCloud } from "./thingProvider";

let dir: string;
let cloudFile: string;
let stack: TestStack;

const log = (): string[] => readCloud(cloudFile).log;
const writes = (): string[] => log().filter((l) => /^(create|update|delete)/.test(l));
const ops = (r: { steps: { op: string; name: string }[] }): string[] => r.steps.map((s) => `${s.op}:${s.name}`);
const indexOf = (prefix: string): number => log().findIndex((l) => l.startsWith(prefix));

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-"));
  cloudFile = path.join(dir, "cloud.json");
  newCloud(cloudFile);
  stack = await TestStack.create({ config: { "test:greeting": "hello" } });
});

afterEach(async () => {
  await stack.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("up", () => {
  it("creates resources through the plugin and returns their outputs", async () => {
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
    expect(a.id).toBe("id-1");
    expect(a.outputs).toMatchObject({ size: 1, sizeLabel: "1GB" });
    expect(typeof a.inputs.__provider).toBe("string");
    expect(stack.resource("b").dependencies).toEqual([a.urn]);
    expect(stack.resources().map((x) => x.name)).toEqual(["a", "b"]);
    expect(() => stack.resource("nope")).toThrow(/known: a, b/);
  });

  it("reports same without Create or Update when nothing changed", async () => {
    const program = (): void => {
      const a = new Thing("a", { cloudFile, size: 1 });
      new Thing("b", { cloudFile, size: 2, ref: a.sizeLabel });
    };
    expectNoErrors(await stack.up(program));
    const before = writes().length;
    const r = expectNoErrors(await stack.up(program));
    expect(ops(r)).toEqual(["same:a", "same:b"]);
    expect(writes().length).toBe(before);
  });

  it("updates in place, keeping the id", async () => {
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const r = expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 3 })));
    expect(ops(r)).toEqual(["update:a"]);
    expect(log()).toContain("update:a:id-1:from=1"); // Update received the old outputs as olds
    expect(stack.resource("a")).toMatchObject({ id: "id-1", inputs: { size: 3 }, outputs: { sizeLabel: "3GB" } });
  });

  it("replaces create-before-delete, deleting the old one at the end of the run", async () => {
    const program = (replaceKey: string, size: number) => (): void => {
      const x = new Thing("x", { cloudFile, size: 1, replaceKey });
      new Thing("y", { cloudFile, size }, { dependsOn: [x] });
    };
    expectNoErrors(await stack.up(program("one", 1)));
    const r = expectNoErrors(await stack.up(program("two", 2)));
    expect(ops(r)).toEqual(["replace:x", "update:y", "delete:x"]);
    const createNew = indexOf("create:x:id-3");
    const updateY = indexOf("update:y:id-2");
    const deleteOld = indexOf("delete:x:id-1");
    expect(createNew).toBeGreaterThan(-1);
    expect(createNew).toBeLessThan(updateY);
    expect(updateY).toBeLessThan(deleteOld);
    expect(stack.resources().map((x) => `${x.name}:${x.id}`)).toEqual(["x:id-3", "y:id-2"]);
  });

  it.each([
    ["the provider's diff", { dbr: true }, {}],
    ["the resource option", {}, { deleteBeforeReplace: true }],
  ])("replaces delete-before-create when %s asks", async (_why, args, opts) => {
    expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "one", ...args }, opts)));
    const r = expectNoErrors(
      await stack.up(() => new Thing("x", { cloudFile, size: 1, replaceKey: "two", ...args }, opts)),
    );
    expect(ops(r)).toEqual(["replace:x"]);
    expect(indexOf("delete:x:id-1")).toBeGreaterThan(-1);
    expect(indexOf("delete:x:id-1")).toBeLessThan(indexOf("create-start:x:id-2"));
    expect(stack.resource("x").id).toBe("id-2");
  });

  it("deletes resources the program no longer declares", async () => {
    expectNoErrors(
      await stack.up(() => {
        new Thing("a", { cloudFile, size: 1 });
        new Thing("b", { cloudFile, size: 1 });
      }),
    );
    const r = expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    expect(ops(r)).toEqual(["same:a", "delete:b"]);
    expect(log()).toContain("delete:b:id-2");
    expect(stack.resources().map((x) => x.name)).toEqual(["a"]);
  });

  it("keeps a resource whose create failed with an id, and updates it on the next up", async () => {
    const program = (): void => {
      new Thing("x", { cloudFile, size: 1, failInit: true });
    };
    const r1 = await stack.up(program);
    expect(r1.errors).toEqual([expect.objectContaining({ name: "x", message: expect.stringMatching(/did not become ready/) })]);
    expect(stack.resource("x")).toMatchObject({ id: "id-1", initFailed: true, outputs: { sizeLabel: "1GB" } });

    const r2 = expectNoErrors(await stack.up(program));
    expect(ops(r2)).toEqual(["update:x"]); // the provider's diff said "no changes"
    expect(log()).toContain("update:x:id-1:from=1");
    expect(stack.resource("x").initFailed).toBeUndefined();
  });

  it("stores nothing when create fails without an id, and fails dependents", async () => {
    const r = await stack.up(() => {
      const x = new Thing("x", { cloudFile, size: 1, failPlain: true });
      new Thing("dep", { cloudFile, size: 1, ref: x.sizeLabel });
      new Thing("ok", { cloudFile, size: 1 });
    });
    expect(r.errors.map((e) => e.name)).toContain("x");
    expect(r.errors.find((e) => e.name === "x")!.message).toMatch(/cannot create x/);
    expect(stack.resources().map((x) => x.name)).toEqual(["ok"]);
    expect(log().some((l) => l.startsWith("check:dep"))).toBe(false);
    expect(() => expectNoErrors(r)).toThrow(/cannot create x/);
  });

  it("reports check failures with property names and creates nothing", async () => {
    const r = await stack.up(() => {
      new Thing("bad", { cloudFile, size: 0 });
    });
    expect(r.checkFailures).toEqual([{ name: "bad", property: "size", reason: expect.stringMatching(/>= 1, got 0/) }]);
    expect(indexOf("create-start:bad")).toBe(-1);
    expect(stack.resources()).toEqual([]);
    expect(() => expectNoErrors(r)).toThrow(/\[bad\] check failure: size/);
  });

  it("refuses to delete a protected resource", async () => {
    expectNoErrors(await stack.up(() => new Thing("p", { cloudFile, size: 1 }, { protect: true })));
    const r = await stack.up(() => undefined);
    expect(r.errors[0]!.message).toMatch(/marked for protection/);
    expect(stack.resource("p").protect).toBe(true);
    expect(indexOf("delete:p")).toBe(-1);
  });

  it("reads with Resource.get without managing the read resource", async () => {
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 4 })));
    const r = expectNoErrors(
      await stack.up(() => {
        const a = new Thing("a", { cloudFile, size: 4 });
        const g = new Thing("g", { cloudFile, size: 4 }, { id: a.id });
        return { label: g.sizeLabel };
      }),
    );
    expect(ops(r)).toEqual(["same:a", "read:g"]);
    expect(r.outputs).toEqual({ label: "4GB" });
    expect(stack.resources().map((x) => x.name)).toEqual(["a"]);
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 4 })));
    expect(indexOf("delete:")).toBe(-1);
  });

  it("names child resources of components after their parent's type", async () => {
    class Pair extends pulumi.ComponentResource {
      constructor(name: string) {
        super("test:index:Pair", name, {}, {});
        new Thing(`${name}-left`, { cloudFile, size: 1 }, { parent: this });
        this.registerOutputs({});
      }
    }
    expectNoErrors(await stack.up(() => new Pair("p")));
    expect(stack.resource("p-left").urn).toBe(
      "urn:pulumi:test::test-project::test:index:Pair$pulumi-nodejs:dynamic/test:Thing::p-left",
    );
  });
});

describe("destroy", () => {
  it("deletes dependents before what they depend on", async () => {
    expectNoErrors(
      await stack.up(() => {
        const a = new Thing("a", { cloudFile, size: 1 });
        const b = new Thing("b", { cloudFile, size: 1, ref: a.sizeLabel });
        new Thing("z", { cloudFile, size: 1 });
        new Thing("c", { cloudFile, size: 1, ref: b.sizeLabel });
      }),
    );
    const r = expectNoErrors(await stack.destroy());
    // Deletes run in parallel as in the engine: z (independent) at any point, but c before
    // b before a.
    expect(stack.resources()).toEqual([]);
    expect([...ops(r)].sort()).toEqual(["delete:a", "delete:b", "delete:c", "delete:z"]);
    expect(ops(r).indexOf("delete:c")).toBeLessThan(ops(r).indexOf("delete:b"));
    expect(ops(r).indexOf("delete:b")).toBeLessThan(ops(r).indexOf("delete:a"));
    const deleted = log().filter((l) => l.startsWith("delete:")).map((l) => l.split(":")[1]);
    expect(deleted.indexOf("c")).toBeLessThan(deleted.indexOf("b"));
    expect(deleted.indexOf("b")).toBeLessThan(deleted.indexOf("a"));
    expect(stack.resources()).toEqual([]);
  });
});

describe("refresh", () => {
  it("removes what is gone and takes drifted outputs and inputs", async () => {
    expectNoErrors(
      await stack.up(() => {
        new Thing("a", { cloudFile, size: 1 });
        new Thing("b", { cloudFile, size: 1 });
      }),
    );
    const cloud = readCloud(cloudFile);
    delete cloud.items["id-1"];
    cloud.items["id-2"]!.size = 5;
    writeCloud(cloudFile, cloud);

    const r = expectNoErrors(await stack.refresh());
    expect(ops(r)).toEqual(["refresh-delete:a", "refresh-update:b"]);
    expect(stack.resources().map((x) => x.name)).toEqual(["b"]);
    expect(stack.resource("b").inputs.size).toBe(5);
    expect(stack.resource("b").outputs.size).toBe(5);

    // the program still says 1: the refreshed inputs make the next up an update
    const up = expectNoErrors(await stack.up(() => new Thing("b", { cloudFile, size: 1 })));
    expect(ops(up)).toEqual(["update:b"]);
  });
});

describe("preview", () => {
  it("sends no writes and gives dependents unknown values", async () => {
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const before = writes();
    const stateBefore = stack.resources();
    const r = expectNoErrors(
      await stack.preview(() => {
        const a = new Thing("a", { cloudFile, size: 2 });
        const b = new Thing("b", { cloudFile, size: 1, ref: a.sizeLabel });
        new Thing("c", { cloudFile, size: 1, ref: b.id });
        new Thing("d", { cloudFile, size: 1, ref: a.key }); // a known input of an updated resource
        return { label: b.sizeLabel };
      }),
    );
    expect(ops(r).sort()).toEqual(["create:b", "create:c", "create:d", "update:a"]);
    expect(writes()).toEqual(before);
    expect(log()).toContain(`check:b:ref=${UNKNOWN}`);
    expect(log()).toContain(`check:c:ref=${UNKNOWN}`);
    expect(log()).toContain("check:d:ref=a");
    expect(r.outputs.label).toBe(UNKNOWN);
    expect(stack.resources()).toEqual(stateBefore);
  });
});

describe("secrets", () => {
  it("keeps additionalSecretOutputs and secret inputs out of the plaintext state", async () => {
    const r = expectNoErrors(
      await stack.up(() => {
        const s = new Thing(
          "s",
          { cloudFile, size: 1, secretInput: pulumi.secret("hunter2") },
          { additionalSecretOutputs: ["token"] },
        );
        return { token: s.token, label: s.sizeLabel };
      }),
    );
    const s = stack.resource("s");
    expect(s.outputs.token).toBe("tok-id-1-s3cr3t");
    expect(s.inputs.secretInput).toBe("hunter2"); // the provider got the plain value
    expect(s.secretOutputs.sort()).toEqual(["secretInput", "token"]);
    expect(r.secretOutputNames).toEqual(["token"]);
    const plain = stack.plaintextState();
    expect(plain).not.toContain("tok-id-1-s3cr3t");
    expect(plain).not.toContain("hunter2");
    expect(plain).toContain("1GB");
    expect(stack.pluginStderr()).not.toContain("hunter2");
  });
});

describe("plugin process", () => {
  it("survives a hard kill mid-create and works after a restart", async () => {
    const gate = path.join(dir, "gate");
    const pending = stack.up(() => new Thing("x", { cloudFile, size: 1, blockUntil: gate }));
    await until(() => indexOf("create-start:x") >= 0, "the create to start");
    const firstPid = stack.plugin.pid;
    await stack.plugin.kill();
    const r = await pending;
    expect(r.errors).toEqual([expect.objectContaining({ name: "x" })]);
    expect(stack.resources()).toEqual([]);

    await stack.plugin.restart();
    expect(stack.plugin.pid).toBeDefined();
    expect(stack.plugin.pid).not.toBe(firstPid);
    fs.writeFileSync(gate, "");
    const r2 = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, blockUntil: gate })));
    expect(ops(r2)).toEqual(["create:x"]);
  });

  it("configures providers with the stack config, and a fresh plugin when it changes", async () => {
    const out = path.join(dir, "configured.txt");
    const s = await TestStack.create({ config: { "test:greeting": "hello" }, env: { THING_CONFIG_OUT: out } });
    try {
      expectNoErrors(await s.up(() => new Thing("a", { cloudFile, size: 1 })));
      const pid = s.plugin.pid;
      s.setConfig("test:greeting", "bye");
      expectNoErrors(await s.up(() => new Thing("a", { cloudFile, size: 1 })));
      expect(s.plugin.pid).not.toBe(pid);
      expect(fs.readFileSync(out, "utf8")).toBe("hello\nbye\n");
    } finally {
      await s.close();
    }
  });
});
