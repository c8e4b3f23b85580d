/**
 * A fifth resource kind from one definition file (./lan.ts, in no file of the product),
 * served through both hosts against the emulator over HTTP:
 *
 * - the dynamic provider, through the harness's engine and Pulumi's own dynamic-provider host
 *   code (in process): check, create, update, read (refresh), delete, and the kind's lookup
 *   run in the program as the TypeScript SDK runs one;
 * - the native plugin's gRPC server, the one its entry point serves, in this process on a
 *   loopback port, driven over gRPC with Pulumi's generated client: check, diff, create, read,
 *   update, delete, and the lookup as a function (Invoke).
 *
 * Nothing of the product was edited for the kind: the native provider takes what it serves
 * (provider/native/provider.ts `Served`), and the dynamic host loads the definition's
 * `provider` from the file compiled, as it loads `pulumi-clouddb/provider/<module>`.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { expectNoErrors, REPO_ROOT } from "../../harness";
import { ops, stackConfig, startCloud, writes, type Cloud } from "../../harness/cloud";
import { NotFoundError } from "../../provider/client/errors";
import { dynamicTypeOf, PROVIDER_KEY } from "../../provider/framework/internalInputs";
import { programConfig } from "../../sdk/lookupCalls";
import { resourceTypeOf } from "../../scripts/generate/sdkFiles";
import { resourceProps } from "../../sdk/construct";
import { NativePlugin, urnOf } from "../native/support";
import { LAN, LAN_LOOKUPS } from "./lan";

/** The definition's file. */
const SOURCE = LAN.source;

/**
 * Compiles `source` (a TypeScript file of this repository) alone, as `tsc` would (the project
 * sets isolatedModules), beside the build in `dist/`, where its relative imports find the built
 * framework; returns the compiled file's path. Written through a temporary file and a rename.
 */
function compiledBesideBuild(source: string): string {
  const file = path.join(REPO_ROOT, "dist", source.replace(/\.ts$/, ".js"));
  const { outputText } = ts.transpileModule(fs.readFileSync(path.join(REPO_ROOT, source), "utf8"), {
    fileName: source,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, outputText);
  fs.renameSync(tmp, file);
  return file;
}

/** The Lan's class as a program declares it: the SDK's properties and options for it, its provider the compiled definition's. */
function lanClass(providerText: string) {
  const type = resourceTypeOf(LAN);
  return class Lan extends pulumi.CustomResource {
    declare readonly name: pulumi.Output<string>;
    declare readonly cidr: pulumi.Output<string>;
    declare readonly regionCode: pulumi.Output<string>;
    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      const { props, options } = resourceProps(`clouddb.${type.kind}`, name, args, opts, type.shape);
      super(dynamicTypeOf(type.kind), name, { ...props, [PROVIDER_KEY]: providerText }, options);
    }
  };
}

const NETWORK = { cidr: "10.40.0.0/16", regionCode: "us-east-1" };

describe("a fifth kind from one definition file", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** Whether the emulator holds no VPC `id`. */
  const gone = (id: string) =>
    cloud.api.perform("getVpc", { vpc: id }).then(
      () => false,
      (e: unknown) => NotFoundError.isInstance(e),
    );

  it("is served by the dynamic host: check, create, update, refresh (read), its lookup, delete", async () => {
    const Lan = lanClass(`exports.handler=()=>require(${JSON.stringify(compiledBesideBuild(SOURCE))}).provider`);
    const { stack, api } = cloud;
    const program =
      (args: Record<string, unknown>, lookUp = false) =>
      () => {
        const lan = new Lan("lan", args);
        const found = lookUp ? lan.id.apply((lanId) => LAN_LOOKUPS.getLan.run({ lanId }, undefined, programConfig())) : undefined;
        return { id: lan.id, name: lan.name, cidr: lan.cidr, found };
      };

    // check: a bad input is refused, naming the property, before anything is sent.
    await cloud.clearRequests();
    const refused = await stack.up(program({ ...NETWORK, cidr: "10.40.0.0/33" }));
    expect(refused.checkFailures.map((f) => f.property)).toEqual(["cidr"]);
    expect(refused.checkFailures[0].reason).toMatch(/33/);
    expect(writes(await cloud.requests())).toEqual([]);

    // create
    const created = expectNoErrors(await stack.up(program({ name: "lan-a", ...NETWORK })));
    expect(ops(created)).toEqual({ lan: "create" });
    const id = String(created.outputs.id);
    expect(await api.perform("getVpc", { vpc: id })).toMatchObject({ name: "lan-a", cidr: NETWORK.cidr, region_code: "us-east-1" });
    expect(stack.resource("lan").outputs).toMatchObject({ lanId: id, name: "lan-a", ...NETWORK, projectId: cloud.emulator.projectId });

    // update: a rename in place, one write.
    await cloud.clearRequests();
    const renamed = expectNoErrors(await stack.up(program({ name: "lan-b", ...NETWORK })));
    expect(ops(renamed)).toEqual({ lan: "update" });
    const sent = writes(await cloud.requests()).map((r) => `${r.method} ${r.path}`);
    expect(sent).toEqual([expect.stringMatching(new RegExp(`^POST /.*/projects/${cloud.emulator.projectId}/vpcs/${id}/rename$`))]);
    expect((await api.perform("getVpc", { vpc: id })).name).toBe("lan-b");

    // read: a refresh records a rename made out of band; the next up, with the lookup, repairs it.
    await api.perform("renameVpc", { vpc: id, body: { name: "drifted" } });
    expectNoErrors(await stack.refresh());
    expect(stack.resource("lan").outputs.name).toBe("drifted");
    const repaired = expectNoErrors(await stack.up(program({ name: "lan-b", ...NETWORK }, true)));
    expect(ops(repaired)).toEqual({ lan: "update" });
    expect(repaired.outputs.found).toEqual({ lanId: id, projectId: cloud.emulator.projectId, name: "lan-b", ...NETWORK });

    // delete
    const destroyed = expectNoErrors(await stack.destroy());
    expect(ops(destroyed)).toEqual({ lan: "delete" });
    expect(await gone(id)).toBe(true);
  });

  it("is served by the native plugin's server, in process over gRPC: check, diff, create, read, update, delete, its lookups", async () => {
    const plugin = await NativePlugin.inProcess({ resources: [LAN], lookups: LAN_LOOKUPS });
    try {
      const config = Object.fromEntries(Object.entries(stackConfig(cloud.emulator)).map(([k, v]) => [k.replace(/^clouddb:/, ""), v]));
      await plugin.configure(config);
      const urn = urnOf("Lan", "lan");

      // check
      const refused = await plugin.check(urn, { ...NETWORK, cidr: "10.40.0.0/33" });
      expect(refused.failures.map((f) => f.property)).toEqual(["cidr"]);
      const checked = await plugin.check(urn, { name: "nat-a", ...NETWORK });
      expect(checked.failures).toEqual([]);

      // create
      await cloud.clearRequests();
      const created = await plugin.create(urn, checked.inputs);
      expect(writes(await cloud.requests()).map((r) => r.method)).toEqual(["POST"]);
      expect(await cloud.api.perform("getVpc", { vpc: created.id })).toMatchObject({ name: "nat-a", cidr: NETWORK.cidr });
      expect(created.outs).toMatchObject({ lanId: created.id, name: "nat-a", ...NETWORK, projectId: cloud.emulator.projectId });

      // read
      await cloud.api.perform("renameVpc", { vpc: created.id, body: { name: "drifted" } });
      const read = await plugin.read(urn, created.id, created.outs, checked.inputs);
      expect(read.id).toBe(created.id);
      expect(read.outs.name).toBe("drifted");

      // diff: a new name updates in place; a new network replaces.
      const renaming = { ...checked.inputs, name: "nat-b" };
      const inPlace = await plugin.diff(urn, created.id, read.outs, renaming);
      expect(inPlace).toMatchObject({ changes: 2, replaces: [] }); // DIFF_SOME
      expect(inPlace.diffs).toContain("name");
      const moving = await plugin.diff(urn, created.id, read.outs, { ...checked.inputs, cidr: "10.41.0.0/16" });
      expect(moving.replaces).toEqual(["cidr"]);

      // update
      const updated = await plugin.update(urn, created.id, read.outs, renaming);
      expect(updated.name).toBe("nat-b");
      expect((await cloud.api.perform("getVpc", { vpc: created.id })).name).toBe("nat-b");

      // the lookup, as a function
      const found = await plugin.invoke("clouddb:index:getLan", { lanId: created.id });
      expect(found.failures).toEqual([]);
      expect(found.result).toEqual({ lanId: created.id, projectId: cloud.emulator.projectId, name: "nat-b", ...NETWORK });
      const missing = await plugin.invoke("clouddb:index:getLan", {});
      expect(missing.failures.map((f) => f.property)).toEqual(["lanId"]);
      // its list, the table's other entry from the same declaration
      const listed = await plugin.invoke("clouddb:index:getLans", {});
      expect(listed.failures).toEqual([]);
      expect(listed.result).toEqual({ lans: expect.arrayContaining([found.result]) as unknown });

      // delete
      await plugin.delete(urn, created.id, updated);
      expect(await gone(created.id)).toBe(true);
    } finally {
      await plugin.close();
    }
  });

  it("is served by no host of the product: the plugin as shipped knows no Lan", async () => {
    const plugin = await NativePlugin.inProcess();
    try {
      await expect(plugin.check(urnOf("Lan", "lan"), { name: "x", ...NETWORK })).rejects.toThrow(
        /serves no resource type "clouddb:index:Lan"/,
      );
      await expect(plugin.invoke("clouddb:index:getLan", { lanId: "1" })).rejects.toThrow(/no function "clouddb:index:getLan"/);
    } finally {
      await plugin.close();
    }
  });
});
