/**
 * The API reference (`npm run docs`) as a reader meets it: a landing page titled
 * pulumi-clouddb, modules named as a program imports them, and resource class pages that
 * show the class a program uses (a CustomResource whose outputs are `Output<T>` of known
 * types), not the machinery that builds it. TypeDoc runs in its own process (it is ESM, which
 * Jest's module sandbox refuses).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";
import { RESOURCES } from "../../provider/resources/registry";

/** A reflection of TypeDoc's JSON model, as far as the tests read it. */
interface Node {
  name: string;
  kind: number;
  children?: Node[];
  extendedTypes?: unknown[];
  type?: { type: string; name?: string; typeArguments?: unknown[] };
  inheritedFrom?: { name: string };
  signatures?: { parameters?: { name: string }[]; typeParameters?: unknown[]; type?: unknown }[];
}

/** TypeDoc's kind of a property (ReflectionKind.Property). */
const PROPERTY = 1024;

/** The text of an HTML page: tags dropped, entities decoded, whitespace folded. */
function textOf(file: string): string {
  return fs
    .readFileSync(file, "utf8")
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

describe("the API reference", () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-api-reference-"));
  let pages: string[];
  let model: Node;
  /** The reflection at `names` (module, then member names) of the JSON model. */
  const at = (...names: string[]): Node => names.reduce((n, name) => n.children!.find((c) => c.name === name)!, model);
  beforeAll(() => {
    const typedoc = path.join(REPO_ROOT, "node_modules", "typedoc", "bin", "typedoc");
    const run = spawnSync(process.execPath, [typedoc, "--out", out, "--json", path.join(out, "api.json")], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    pages = fs.readdirSync(out, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html"));
    model = JSON.parse(fs.readFileSync(path.join(out, "api.json"), "utf8")) as Node;
  }, 150_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("opens on a landing page titled pulumi-clouddb that introduces each module", () => {
    const landing = textOf(path.join(out, "index.html"));
    expect(landing).toMatch(/^\s*pulumi-clouddb\b/);
    expect(landing).toContain("The API reference of pulumi-clouddb");
    for (const module of ["pulumi-clouddb", "pulumi-clouddb/provider/client", "pulumi-clouddb/emulator"]) {
      expect(landing).toContain(module);
    }
  });

  it("names its modules as a program imports them, none `sdk`", () => {
    expect(model.children!.map((m) => m.name).sort()).toEqual([
      "pulumi-clouddb",
      "pulumi-clouddb/emulator",
      "pulumi-clouddb/provider/client",
    ]);
    expect(textOf(path.join(out, "modules", "pulumi-clouddb.html"))).toContain("Module pulumi-clouddb ");
  });

  it("shows no internal of the package, and no link into node_modules, on any page", () => {
    const found = pages.flatMap((page) => {
      const text = textOf(path.join(out, page));
      return ["ClouddbResource", "OutputProperties", "resourceClass", "resourceType(", "OutputInstance", "node_modules/"]
        .filter((internal) => text.includes(internal))
        .map((internal) => `${page}: ${internal}`);
    });
    expect(found).toEqual([]);
  });

  it.each(RESOURCES.map((r) => r.definition.schema.kind))(
    "shows %s as a CustomResource whose outputs are Output<T> of known types, and whose get returns it",
    (kind) => {
      expect(textOf(path.join(out, "classes", `pulumi-clouddb.${kind}.html`))).toContain(` Hierarchy CustomResource ${kind} `);
      const cls = at("pulumi-clouddb", kind);
      expect(cls.extendedTypes).toEqual([
        expect.objectContaining({ type: "reference", name: "CustomResource", package: "@pulumi/pulumi" }),
      ]);
      const properties = cls.children!.filter((c) => c.kind === PROPERTY);
      expect(properties.length).toBeGreaterThan(3);
      expect(properties.filter((p) => p.type?.name !== "Output" || p.type.typeArguments?.length !== 1).map((p) => p.name)).toEqual([]);
      expect(properties.filter((p) => p.inheritedFrom && !p.inheritedFrom.name.startsWith("CustomResource.")).map((p) => p.name)).toEqual(
        [],
      );
      const get = cls.children!.find((c) => c.name === "get")!.signatures![0];
      expect(get.parameters!.map((p) => p.name)).toEqual(["name", "id", "state", "opts"]);
      expect(get.typeParameters).toBeUndefined();
      expect(get.type).toMatchObject({ type: "reference", name: kind });
    },
  );

  it("types a Service's size outputs as Size, and an optional output with undefined", () => {
    const output = (name: string): unknown => at("pulumi-clouddb", "Service", name).type!.typeArguments![0];
    expect(output("cpuMillis")).toMatchObject({ type: "reference", name: "Size" });
    expect(output("paused")).toEqual({ type: "intrinsic", name: "boolean" });
    expect(output("password")).toEqual({
      type: "union",
      types: [
        { type: "intrinsic", name: "string" },
        { type: "intrinsic", name: "undefined" },
      ],
    });
  });
});
