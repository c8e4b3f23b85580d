/**
 * docs/ARCHITECTURE.md's diagram is the code's: every arrow of its mermaid block is an import
 * between the parts it shows, and every such import is an arrow. A solid arrow (`-->`) is an
 * import loaded with the importer; a dotted one (`-.->`) is only required lazily or imported
 * for types. Each node's label starts with the files it stands for (`provider/client/`: a
 * folder, `sdk/lookups.ts`: a file, `provider/*.ts`: the files directly in a folder); a file
 * belongs to the node with the longest pattern that matches it. Imports are read with
 * TypeScript's parser.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.join(__dirname, "..", "..");
const DOC = path.join(ROOT, "docs", "ARCHITECTURE.md");

/** A node of the diagram: its id and the pattern its label starts with. */
interface Node {
  readonly id: string;
  readonly pattern: string;
}

/** The nodes and arrows (`a --> b`, `a -.-> b`) of the markdown's mermaid block. */
function diagramOf(markdown: string): { nodes: Node[]; arrows: string[] } {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error("no mermaid block");
  const nodes: Node[] = [];
  const arrows: string[] = [];
  for (const line of block.split("\n")) {
    const node = /^\s*(\w+)\["([^":\s]+)/.exec(line);
    if (node) nodes.push({ id: node[1], pattern: node[2] });
    const arrow = /^\s*(\w+)\s*(-->|-\.->)(?:\|[^|]*\|)?\s*(\w+)\s*$/.exec(line);
    if (arrow) arrows.push(`${arrow[1]} ${arrow[2]} ${arrow[3]}`);
  }
  return { nodes, arrows: arrows.sort() };
}

/** Whether `file` (relative, with `/`) is one of `pattern`'s files. */
function matches(pattern: string, file: string): boolean {
  if (pattern.endsWith("/*.ts")) return path.posix.dirname(file) === pattern.slice(0, -"/*.ts".length) && file.endsWith(".ts");
  return pattern.endsWith("/") ? file.startsWith(pattern) : file === pattern;
}

/** The node `file` belongs to: the one with the longest matching pattern. */
function nodeOf(nodes: readonly Node[], file: string): string | undefined {
  const found = nodes.filter((n) => matches(n.pattern, file)).sort((a, b) => b.pattern.length - a.pattern.length);
  return found[0]?.id;
}

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a relative import names (`./x` → `x.ts` or `x/index.ts`), relative to the root. */
function resolved(from: string, specifier: string): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (fs.existsSync(path.join(ROOT, candidate))) return candidate;
  return base;
}

/** Whether an import or export declaration is erased when compiled (types only). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    return (
      node.isTypeOnly ||
      (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly))
    );
  }
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/** What `file` (relative to the root) imports of ours: each file it names, and whether it is loaded with it (not only lazily or for types). */
function importsIn(file: string, text = fs.readFileSync(path.join(ROOT, file), "utf8")): { to: string; atLoad: boolean }[] {
  const found: { to: string; atLoad: boolean }[] = [];
  const add = (specifier: string, atLoad: boolean): void => {
    if (specifier.startsWith(".")) found.push({ to: resolved(file, specifier), atLoad });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, !typeOnly(node));
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require") {
      const [first] = node.arguments;
      if (first !== undefined && ts.isStringLiteral(first)) add(first.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true));
  return found;
}

/** The `.ts` files under `root` (a folder of the repository), relative to the root, with `/`. */
function filesUnder(root: string): string[] {
  return tsFiles(path.join(ROOT, root)).map((f) => path.relative(ROOT, f).split(path.sep).join("/"));
}

/** The arrows the code's imports make between `nodes`: `-->` when one is loaded with the importer, else `-.->`. */
function importArrows(nodes: readonly Node[]): { arrows: string[]; filesOf: Map<string, number> } {
  const roots = [...new Set(nodes.map((n) => n.pattern.split("/")[0]))];
  const files = roots.flatMap(filesUnder);
  const loaded = new Map<string, boolean>();
  const filesOf = new Map<string, number>();
  for (const file of files) {
    const from = nodeOf(nodes, file);
    if (from === undefined) continue;
    filesOf.set(from, (filesOf.get(from) ?? 0) + 1);
    for (const { to: target, atLoad } of importsIn(file)) {
      const to = nodeOf(nodes, target);
      if (to === undefined || to === from) continue;
      const key = `${from} ${to}`;
      loaded.set(key, (loaded.get(key) ?? false) || atLoad);
    }
  }
  const arrows = [...loaded].map(([key, atLoad]) => key.replace(" ", atLoad ? " --> " : " -.-> "));
  return { arrows: arrows.sort(), filesOf };
}

describe("the architecture diagram", () => {
  const markdown = fs.readFileSync(DOC, "utf8");
  const { nodes, arrows } = diagramOf(markdown);
  const code = importArrows(nodes);

  it("stands for files that exist: each node has some", () => {
    expect(nodes.length).toBeGreaterThanOrEqual(10);
    expect(nodes.filter((n) => (code.filesOf.get(n.id) ?? 0) === 0).map((n) => n.pattern)).toEqual([]);
  });

  it("has an arrow for each import between its parts, and no other, each of the right kind", () => {
    expect(arrows).toEqual(code.arrows);
  });

  it("shows the contract at the ground floor: it imports nothing of ours", () => {
    expect(code.arrows.filter((a) => a.startsWith("contract "))).toEqual([]);
  });

  it("would be told apart from a diagram with an arrow missing, an arrow too many, or a dotted arrow drawn solid", () => {
    const wrong = markdown
      .replace("  client --> contract\n", "")
      .replace("  emulator --> contract\n", "  emulator --> contract\n  emulator --> client\n")
      .replace("  sdk -.-> lookups\n", "  sdk --> lookups\n");
    const drawn = diagramOf(wrong).arrows;
    expect(code.arrows.filter((a) => !drawn.includes(a)).sort()).toEqual(["client --> contract", "sdk -.-> lookups"]);
    expect(drawn.filter((a) => !code.arrows.includes(a)).sort()).toEqual(["emulator --> client", "sdk --> lookups"]);
  });
});

describe("the layers' direction", () => {
  /** Each import of a file under `provider/` that names a file under `sdk/`, as `importer -> imported`, lazy and type-only ones too. */
  const upward = (file: string, text?: string): string[] =>
    importsIn(file, text)
      .filter((i) => i.to.startsWith("sdk/"))
      .map((i) => `${file} -> ${i.to}`);

  it("has no import running upward: no file under provider/ imports from sdk/ (the SDK is built on the provider, never the reverse)", () => {
    expect(filesUnder("provider").flatMap((file) => upward(file))).toEqual([]);
  });

  it("would see one: an import, a lazy require and a type import of sdk/ are each told", () => {
    const probe = "provider/import/probe.ts";
    expect(upward(probe, 'import { providerText } from "../../sdk/trampoline";\n')).toEqual([`${probe} -> sdk/trampoline.ts`]);
    expect(upward(probe, 'export const f = () => require("../../sdk/functions");\n')).toEqual([`${probe} -> sdk/functions.ts`]);
    expect(upward(probe, 'export type T = typeof import("../../sdk/outputs");\n')).toEqual([`${probe} -> sdk/outputs.ts`]);
  });
});
