/**
 * The serialized providers (sdk/trampoline.ts) as they reach Pulumi's provider process:
 * small (the checkpoint holds one twice for every resource), free of credentials, loading the
 * installed package's provider, and, when the process cannot load the package from the
 * program's directory, failing at once with the package's name.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { RESOURCES } from "../../provider/resources/registry";
import { REPO_ROOT, TestStack } from "../../harness";

// The build the provider process runs, not the TypeScript source.
const { providerText } = require(path.join(REPO_ROOT, "dist", "sdk", "trampoline.js")) as typeof import("../../sdk/trampoline");
const clouddb = require(path.join(REPO_ROOT, "dist", "sdk", "index.js")) as typeof import("../../sdk");
// How the provider process loads a serialized provider (cmd/dynamic-provider `getProvider`).
const requireFromString = require("require-from-string") as (code: string) => { handler(): unknown };

describe("serialized providers", () => {
  it.each(RESOURCES.map((r) => r.module))("%s is one require of the installed package's provider and holds nothing else", (module) => {
    const text = providerText(module);
    expect(text).toBe(`exports.handler=()=>require("pulumi-clouddb/provider/${module}").provider`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100);
    const loaded = requireFromString(text).handler() as Record<string, unknown>;
    expect(Object.keys(loaded).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
  });

  describe("in a program directory without the package", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-no-package-"));
    let stack: TestStack;
    beforeAll(async () => {
      // A program's directory has @pulumi/pulumi (the CLI's shim resolves the provider
      // process from it) but, here, not pulumi-clouddb.
      fs.mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dir, "node_modules", "@pulumi", "pulumi"), "dir");
      stack = await TestStack.create({
        host: "plugin",
        cwd: dir,
        config: { "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k" },
      });
    });
    afterAll(async () => {
      await stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("fails the first call at once, naming the package's module it could not find", async () => {
      const started = Date.now();
      const r = await stack.up(() => {
        new clouddb.Vpc("net", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].message).toContain("Cannot find module 'pulumi-clouddb/provider/vpc'");
      expect(stack.resources()).toEqual([]);
    });
  });
});
