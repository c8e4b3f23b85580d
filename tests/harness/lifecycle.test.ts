/**
 * Self-tests of the harness's rules around the steps (README.md, "Rules"): plugin processes
 * and their configuration, refresh, `Resource.get`, import, an engine that dies, and what the
 * engine prints. Each test names the rule it checks.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { expectNoErrors, printed, TestStack, UNKNOWN, until } from "../../harness/index";
import { ops, useThingWorld } from "./support";
import { readCloud, Thing, thingProvider, writeCloud } from "./thingProvider";

// Its subject is the plugin process: one per run, its configuration, its end, orphans.
const world = useThingWorld({ host: "plugin" });

/** The lines the Thing provider wrote: one per Configure, and one per SIGINT it received (`signal`). */
function linesSeen(file: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** What each Configure saw. */
function configSeen(file: string): Array<Record<string, unknown>> {
  return linesSeen(file).filter((l) => l.signal === undefined);
}

describe("plugin processes and configuration", () => {
  it("P1-P3, P5, P7: one process per operation, configured with the namespaced stack config and the CLI's environment, interrupted at its end", async () => {
    const { dir, cloudFile } = world();
    const out = path.join(dir, "configured.jsonl");
    const stack = await TestStack.create({
      host: "plugin",
      config: { "test:greeting": "hello", "test:token": "t0ps3cret" },
      secretKeys: ["test:token"],
      env: { THING_CONFIG_OUT: out },
    });
    try {
      expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
      expect(stack.plugin.pid).toBeUndefined(); // stopped with the operation
      expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
      const seen = configSeen(out);
      expect(seen).toHaveLength(2);
      expect(seen[0].pid).not.toBe(seen[1].pid);
      // Each process got the engine's SIGINT when its operation ended (nothing printed about a kill).
      expect(
        linesSeen(out)
          .filter((s) => s.signal === "SIGINT")
          .map((s) => s.pid),
      ).toEqual([seen[0].pid, seen[1].pid]);
      expect(stack.pluginStderr()).toBe("");
      expect(seen[0]).toMatchObject({
        greeting: "hello",
        token: "t0ps3cret", // the host unwraps a secret config value
        env: { PULUMI_NODEJS_PROJECT: "test-project", PULUMI_PROJECT: "test-project", PULUMI_CONFIG: "{}" },
      });
      expect((seen[0].env as Record<string, unknown>).PULUMI_NODEJS_STACK).toBeUndefined();
      expect(seen[0].bare).toBeUndefined(); // a key without namespace is read as `test-project:greeting`
    } finally {
      await stack.close();
    }
  });

  it("P6: refresh and destroy configure the provider as the last up left it", async () => {
    const { dir, cloudFile } = world();
    const out = path.join(dir, "configured.jsonl");
    const stack = await TestStack.create({ host: "plugin", config: { "test:greeting": "hello" }, env: { THING_CONFIG_OUT: out } });
    try {
      expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
      stack.setConfig("test:greeting", "bye");
      expectNoErrors(await stack.refresh());
      expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
      expectNoErrors(await stack.destroy());
      expect(configSeen(out).map((s) => s.greeting)).toEqual(["hello", "hello", "bye", "bye"]);
    } finally {
      await stack.close();
    }
  });

  it("LG2: prints what the program logs with its severity, the runtime's own warnings included", async () => {
    const { stack, cloudFile } = world();
    const r = expectNoErrors(
      await stack.up(() => {
        void pulumi.log.info("hello from the program");
        new Thing("a", { cloudFile, size: 1 });
        return { nothing: undefined };
      }),
    );
    expect(r.diagnostics).toEqual(
      expect.arrayContaining([
        { severity: "info", message: "hello from the program" },
        { severity: "warning", message: "Undefined value (nothing) will not show as a stack output." },
      ]),
    );
  });

  it("LG1: shows what the plugin writes as info lines", async () => {
    const { stack, cloudFile } = world();
    const r = await stack.up(() => new Thing("x", { cloudFile, size: 1, failRead: true }, { id: "id-9" }));
    expect(r.diagnostics.some((d) => d.severity === "info" && d.message.includes("cannot read x"))).toBe(true);
  });
});

describe("refresh", () => {
  it("RF2, RF3: removes what is gone and takes drifted outputs and the inputs Read returns", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(
      await stack.up(() => {
        new Thing("a", { cloudFile, size: 1 });
        new Thing("b", { cloudFile, size: 1 });
      }),
    );
    // Ids from state: the two creates run at once, and the engine may get either registration first (RG5).
    const cloud = readCloud(cloudFile);
    delete cloud.items[stack.resource("a").id];
    cloud.items[stack.resource("b").id].size = 5;
    writeCloud(cloudFile, cloud);

    const r = expectNoErrors(await stack.refresh());
    expect(ops(r).sort()).toEqual(["refresh-delete:a", "refresh-update:b"]);
    expect(stack.resources().map((x) => x.name)).toEqual(["b"]);
    expect(stack.resource("b")).toMatchObject({ inputs: { size: 5 }, outputs: { size: 5 } });
    // the program still says 1: the refreshed inputs make the next up an update
    expect(ops(expectNoErrors(await stack.up(() => new Thing("b", { cloudFile, size: 1 }))))).toEqual(["update:b"]);
  });

  it("RF4: the step shown is the provider's Diff of the refreshed outputs against the inputs stored before", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    expect(ops(expectNoErrors(await stack.refresh()))).toEqual(["same:a"]);
    expect(log().filter((l) => l.startsWith("diff:a")).length).toBe(1);
    const cloud = readCloud(cloudFile);
    cloud.items["id-1"].size = 7;
    writeCloud(cloudFile, cloud);
    expect(ops(expectNoErrors(await stack.refresh()))).toEqual(["refresh-update:a"]);
    // the inputs Read returned are stored, so a second refresh finds nothing new
    expect(ops(expectNoErrors(await stack.refresh()))).toEqual(["same:a"]);
  });

  it("RF3: a refresh replaces the init errors with the Read's (none): the next up does what Diff says", async () => {
    const { stack, cloudFile } = world();
    await stack.up(() => new Thing("x", { cloudFile, size: 1, failInit: true }));
    expect(stack.resource("x").initFailed).toBe(true);
    expectNoErrors(await stack.refresh());
    expect(stack.resource("x").initErrors).toEqual([]);
    expect(ops(expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, failInit: true }))))).toEqual(["same:x"]);
  });

  it("RF1: reads side by side; one failed read does not stop the others", async () => {
    const { stack, cloudFile } = world();
    expectNoErrors(
      await stack.up(() => {
        new Thing("bad", { cloudFile, size: 1, failRead: true });
        for (let i = 0; i < 3; i++) new Thing(`ok${i}`, { cloudFile, size: 1 });
      }),
    );
    const r = await stack.refresh();
    expect(r.errors.map((e) => e.name)).toEqual(["bad"]);
    expect(ops(r).sort()).toEqual(["same:ok0", "same:ok1", "same:ok2"]);
  });

  it("RF1: up --refresh reads first, and a failed read stops it before the program runs", async () => {
    const { stack, cloudFile, indexOf } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const cloud = readCloud(cloudFile);
    cloud.items["id-1"].size = 4;
    writeCloud(cloudFile, cloud);
    const r = expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 }), { refresh: true }));
    expect(ops(r)).toEqual(["refresh-update:a", "update:a"]);

    expectNoErrors(await stack.up(() => new Thing("b", { cloudFile, size: 1, failRead: true })));
    const stopped = await stack.up(() => new Thing("z", { cloudFile, size: 1 }), { refresh: true });
    expect(stopped.errors.map((e) => e.name)).toEqual(["b"]);
    expect(indexOf("check:z")).toBe(-1);
  });
});

describe("Resource.get", () => {
  it("RG2, RG4: reads with the given properties as inputs, keeps it external, drops it when no longer read", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 4 })));
    const r = expectNoErrors(
      await stack.up(() => {
        const a = new Thing("a", { cloudFile, size: 4 });
        const g = new Thing("g", { cloudFile, size: 4 }, { id: a.id });
        return { label: g.sizeLabel };
      }),
    );
    expect(ops(r)).toEqual(["same:a", "read:g"]);
    expect(log()).toContain("read:g:id-1:props=cloudFile,key,size"); // the given properties, not the state
    expect(r.outputs).toEqual({ label: "4GB" });
    expect(stack.externalResources().map((x) => x.name)).toEqual(["g"]);
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 4 })));
    expect(stack.externalResources()).toEqual([]);
    expect(log().some((l) => l.startsWith("delete"))).toBe(false);
  });

  it("RG3: a missing id is taken as found, with the requested id and no outputs but __provider", async () => {
    const { stack, cloudFile } = world();
    const r = expectNoErrors(await stack.up(() => ({ label: new Thing("g", { cloudFile, size: 1 }, { id: "id-404" }).sizeLabel })));
    expect(ops(r)).toEqual(["read:g"]);
    expect(stack.externalResources()).toEqual([{ name: "g", id: "id-404", outputs: { __provider: expect.any(String) } }]);
  });

  it("RG2: an id not known in preview sends no Read", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(
      await stack.preview(() => {
        const a = new Thing("a", { cloudFile, size: 1 });
        new Thing("g", { cloudFile, size: 1 }, { id: a.id });
      }),
    );
    expect(log().some((l) => l.startsWith("read"))).toBe(false);
    void UNKNOWN;
  });
});

describe("import", () => {
  it("IM1: the import option fails for a dynamic resource (its Read carries no properties)", async () => {
    const { stack, cloudFile } = world();
    const r = await stack.up(() => new Thing("i", { cloudFile, size: 1 }, { import: "id-1" }));
    expect(r.errors[0].message).toMatch(/code must be a string, not undefined/);
    expect(stack.resources()).toEqual([]);
  });
});

describe("import --file", () => {
  it("IM2, IM3: no Read with outputs given; Check with olds = news = the inputs; protected by default", async () => {
    const { stack, cloudFile, log } = world();
    // The inputs must carry the serialized provider: the host loads the provider from them.
    const __provider = (await pulumi.runtime.serializeFunction(() => thingProvider, { allowSecrets: true })).text;
    const without = await stack.importFile([
      { type: "pulumi-nodejs:dynamic/test:Thing", name: "j", id: "id-8", inputs: { cloudFile }, outputs: { cloudFile } },
    ]);
    expect(without.errors[0].message).toMatch(/code must be a string/);
    const r = expectNoErrors(
      await stack.importFile([
        {
          type: "pulumi-nodejs:dynamic/test:Thing",
          name: "i",
          id: "id-7",
          inputs: { __provider, cloudFile, key: "i", size: 0 },
          outputs: { __provider, cloudFile, key: "i", size: 3, sizeLabel: "3GB" },
        },
      ]),
    );
    expect(ops(r)).toEqual(["import:i"]);
    expect(log()).toEqual(["check:i:ref=undefined:olds=0:tag=null", "check-end:i"]);
    // size 0 fails check: only warnings, the import's own and the failure's
    expect(r.diagnostics.filter((d) => d.severity !== "info").map((d) => d.message.replace(/:.*/s, ""))).toEqual([
      "One or more imported inputs failed to validate. This is almost certainly a bug in the `pulumi-nodejs` provider. The import will still proceed, but you will need to edit the generated code after copying it into your program.",
      "pulumi-nodejs",
    ]);
    expect(stack.resource("i")).toMatchObject({ id: "id-7", protect: true, outputs: { sizeLabel: "3GB" } });
  });
});

describe("a program that fails", () => {
  it("ends the run: nothing is deleted", async () => {
    const { stack, cloudFile, log } = world();
    expectNoErrors(await stack.up(() => new Thing("a", { cloudFile, size: 1 })));
    const r = await stack.up(() => {
      throw new Error("the program broke");
    });
    expect(r.errors[0].message).toContain("the program broke");
    expect(log().some((l) => l.startsWith("delete"))).toBe(false);
    expect(stack.resources().map((x) => x.name)).toEqual(["a"]);
  });
});

describe("an engine that dies", () => {
  it("PO1-PO3: a create in flight stays a pending operation; the next up warns and creates again; refresh --clear-pending-creates clears it", async () => {
    const { stack, cloudFile, dir, log } = world();
    const gate = path.join(dir, "gate");
    const dies = new AbortController();
    const running = stack.up(() => new Thing("x", { cloudFile, size: 1, blockUntil: gate }), { engineDies: dies.signal });
    await until("the create to start", async () => log().some((l) => l.startsWith("create-start:x")) || undefined);
    dies.abort();
    const first = await running;
    expect(first.interrupted).toBe(true);
    expect(stack.resources()).toEqual([]);
    expect(stack.pendingOperations()).toEqual([expect.objectContaining({ op: "creating", urn: expect.stringMatching(/::x$/) })]);

    // The plugin, left on its own, finishes the create nobody will record.
    fs.writeFileSync(gate, "");
    await stack.orphansSettled();
    expect(log()).toContain("create:x:id-1");

    // PO4: the dead engine's lock stays on the stack until `pulumi cancel`.
    const locked = await stack.up(() => new Thing("x", { cloudFile, size: 1 }));
    expect(locked.errors.map((e) => e.message).join("\n")).toMatch(/the stack is currently locked by 1 lock\(s\).*`pulumi cancel`/s);
    await stack.cancel();
    const second = expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1 })));
    expect(printed(second)).toContain("Attempting to deploy or update resources with 1 pending operations from previous deployment.");
    expect(ops(second)).toEqual(["create:x"]);
    expect(stack.pendingOperations()).toHaveLength(1); // kept until a refresh clears it
    expectNoErrors(await stack.refresh({ clearPendingCreates: true }));
    expect(stack.pendingOperations()).toEqual([]);
  });
});

describe("a crashed plugin", () => {
  it("fails the calls under way; the next operation starts a fresh process", async () => {
    const { stack, cloudFile, dir, log } = world();
    const gate = path.join(dir, "gate");
    const pending = stack.up(() => new Thing("x", { cloudFile, size: 1, blockUntil: gate }));
    await until("the create to start", async () => log().some((l) => l.startsWith("create-start:x")) || undefined);
    await stack.plugin.kill();
    const r = await pending;
    expect(r.errors).toEqual([expect.objectContaining({ name: "x" })]);
    expect(stack.resources()).toEqual([]);
    expect(stack.pendingOperations()).toEqual([]); // the engine saw the step fail
    fs.writeFileSync(gate, "");
    expect(ops(expectNoErrors(await stack.up(() => new Thing("x", { cloudFile, size: 1, blockUntil: gate }))))).toEqual(["create:x"]);
    void pulumi;
  });
});
