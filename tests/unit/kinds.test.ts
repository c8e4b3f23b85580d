/**
 * One list knows the resource types: the definitions `npm run generate` finds
 * (provider/resources/registry.ts, and provider/framework/kinds.ts without the definitions).
 * Every other list of them is written from it (package.json's entry points, and from those the
 * API reports; the SDK's index; the ownership answers) or, where it is hand-written outside the
 * generator's reach (the native TypeScript SDK's overlay), checked against it here.
 */
import * as fs from "fs";
import * as path from "path";
import { OWNERSHIP_KINDS } from "../../provider/framework/ownership";
import { KINDS } from "../../provider/framework/kinds";
import type { RegisteredResource } from "../../provider/resources/registration";
import { RESOURCES } from "../../provider/resources/registry";
import { withTypeEntryPoints } from "../../scripts/generate/packageEntryPoints";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
type Manifest = { exports: Record<string, unknown>; typesVersions: { "*": Record<string, string[]> } };

describe("the lists of resource types", () => {
  const modules = RESOURCES.map((r) => r.module);

  it("are one: the generated kinds are the definitions' kinds and modules, in the same order", () => {
    expect(KINDS.map((k) => ({ ...k }))).toEqual(RESOURCES.map((r) => ({ kind: r.definition.schema.kind, module: r.module })));
    expect(OWNERSHIP_KINDS).toEqual(KINDS.map((k) => k.kind));
  });

  it("give package.json one entry point per type, with its types, and the SDK one export per type", () => {
    const pkg = JSON.parse(read("package.json")) as Manifest;
    const typeExports = Object.keys(pkg.exports).filter((key) => /^\.\/provider\/[^/]+$/.test(key) && key !== "./provider/client");
    expect(typeExports).toEqual(modules.map((m) => `./provider/${m}`));
    for (const m of modules) {
      expect(pkg.exports[`./provider/${m}`]).toEqual({ types: `./dist/provider/${m}.d.ts`, default: `./dist/provider/${m}.js` });
      expect(pkg.typesVersions["*"][`provider/${m}`]).toEqual([`dist/provider/${m}.d.ts`]);
      expect(fs.existsSync(path.join(root, "provider", `${m}.ts`))).toBe(true);
    }
    const sdkIndex = read("sdk/index.ts");
    for (const k of KINDS) expect(sdkIndex).toContain(`export { ${k.kind}, type ${k.kind}Args } from "./${k.module}";`);
  });

  it("agree with the native TypeScript SDK's overlay, which is hand-written", () => {
    const overlay = read("tools/sdk-overlays/nodejs/untracedResources.ts");
    const listed = [...overlay.matchAll(/\[require\("\.\/(\w+)"\), "(\w+)"\]/g)].map((m) => ({ kind: m[2], module: m[1] }));
    expect(listed).toEqual(KINDS.map((k) => ({ kind: k.kind, module: k.module })));
  });

  it("make package.json's entry points from the definitions: a new type gets one, a removed one loses it, the rest stay", () => {
    const text = read("package.json");
    const backup = { module: "backup", source: "provider/resources/backup/definition.ts" } as unknown as RegisteredResource;
    const added = JSON.parse(withTypeEntryPoints(root, text, [...RESOURCES, backup])) as Manifest;
    expect(added.exports["./provider/backup"]).toEqual({ types: "./dist/provider/backup.d.ts", default: "./dist/provider/backup.js" });
    expect(added.typesVersions["*"]["provider/backup"]).toEqual(["dist/provider/backup.d.ts"]);
    const removed = JSON.parse(withTypeEntryPoints(root, text, RESOURCES.slice(1))) as Manifest;
    expect(Object.keys(removed.exports)).not.toContain(`./provider/${modules[0]}`);
    expect(Object.keys(removed.typesVersions["*"])).not.toContain(`provider/${modules[0]}`);
    for (const kept of [".", "./provider", "./provider/client", "./emulator", "./package.json"])
      expect(Object.keys(removed.exports)).toContain(kept);
    expect(withTypeEntryPoints(root, text, RESOURCES)).toBe(text);
  });
});
