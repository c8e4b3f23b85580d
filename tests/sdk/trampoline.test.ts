/**
 * The serialized providers (sdk/trampoline.ts) as they reach Pulumi's provider process:
 * small, free of credentials, and, when the process cannot load the package from the
 * program's directory, failing at once with how to fix it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/resources/registry";
import { REPO_ROOT, TestStack } from "../../harness";

// The build the provider process runs, not the TypeScript source.
const { trampoline } = require(path.join(REPO_ROOT, "dist", "sdk", "trampoline.js")) as {
  trampoline: (module: string) => pulumi.dynamic.ResourceProvider;
};
const providers = Object.fromEntries(RESOURCES.map((r) => [r.module, trampoline(r.module)]));
const clouddb = require(path.join(REPO_ROOT, "dist", "sdk", "index.js")) as typeof import("../../sdk");

describe("serialized providers", () => {
  it.each(Object.keys(providers))("%s serializes to about 2 KB that only forwards to the installed package", async (kind) => {
    const provider = providers[kind];
    const { text } = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
    expect(Buffer.byteLength(text)).toBeLessThan(2200);
    expect(text).toContain(`"pulumi-clouddb/provider/${kind}"`);
    expect(text).toContain("Install pulumi-clouddb in the program's node_modules.");
  });

  describe("in a program directory without the package", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-no-package-"));
    let stack: TestStack;
    beforeAll(async () => {
      // A program's directory has @pulumi/pulumi (the CLI's shim resolves the provider
      // process from it) but, here, not pulumi-clouddb.
      fs.mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dir, "node_modules", "@pulumi", "pulumi"), "dir");
      stack = await TestStack.create({ cwd: dir, config: { "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k" } });
    });
    afterAll(async () => {
      await stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("fails the first call at once, saying to install the package in the program's node_modules", async () => {
      const started = Date.now();
      const r = await stack.up(() => {
        new clouddb.Vpc("net", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].message).toContain("Cannot find module 'pulumi-clouddb/provider/vpc'");
      expect(r.errors[0].message).toContain("Install pulumi-clouddb in the program's node_modules.");
      expect(stack.resources()).toEqual([]);
    });
  });
});
