/**
 * Statuses come from the contract: no file of provider/ or emulator/ writes a status the
 * contract's table lists (contract/statuses.ts) as a string literal. Code that names one
 * status takes it from `SERVICE_STATUS`, `REPLICA_SET_STATUS` or `PEERING_STATUS`, and code
 * that asks what a status means asks its class (`hasStatusClass`, `statusesIn`), so a status
 * the table drops or renames fails to compile, and a rule (which statuses are failures, which
 * settle) is written once. The files are read with TypeScript's parser: comments and the text
 * inside longer strings are not literals.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { knownStatuses, STATUS_RULES, type WatchedKind } from "../../contract/statuses";

const ROOT = path.join(__dirname, "..", "..");
const FOLDERS = ["provider", "emulator"];

/** Every status the table lists, of any kind. */
const STATUSES = new Set<string>((Object.keys(STATUS_RULES) as WatchedKind[]).flatMap((kind) => knownStatuses(kind)));

/**
 * Literals spelled like a status that are not one, by file: words of messages. Each entry
 * is a decision, not a loophole: a status belongs in the contract.
 */
const NOT_STATUSES: Readonly<Record<string, readonly string[]>> = {
  // The verbs of "failed while creating/deleting ..." messages.
  "provider/framework/userErrors.ts": ["creating", "deleting"],
};

/** The functions whose arguments from this index on are status classes (`"failed"` is also a peering status). */
const CLASS_ARGUMENTS: Readonly<Record<string, number>> = { hasStatusClass: 2, statusesIn: 1 };
/** Methods whose first argument is an event name (Node's `"error"` event is no status). */
const EVENT_METHODS = new Set(["on", "once", "off", "addListener", "removeListener"]);

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The name a call is made by: `f(...)` → `f`, `x.f(...)` → `f`. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/**
 * Whether `literal` is not a status: a property name tested with `in`, or an argument that is a
 * status class or an event name.
 */
function isExempt(literal: ts.StringLiteralLike): boolean {
  const parent = literal.parent;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.InKeyword && parent.left === literal) return true;
  const call = parent;
  if (!ts.isCallExpression(call)) return false;
  const index = call.arguments.indexOf(literal);
  const name = calleeName(call);
  if (name === undefined || index < 0) return false;
  if (name in CLASS_ARGUMENTS) return index >= CLASS_ARGUMENTS[name];
  return index === 0 && EVENT_METHODS.has(name) && ts.isPropertyAccessExpression(call.expression);
}

/** `file:line "status"` for each status written as a literal in `file` (relative to the root). */
function statusLiteralsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const allowed = NOT_STATUSES[file] ?? [];
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      STATUSES.has(node.text) &&
      !allowed.includes(node.text) &&
      !ts.isImportDeclaration(node.parent) &&
      !isExempt(node)
    ) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${JSON.stringify(node.text)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("status literals", () => {
  const files = FOLDERS.flatMap((f) => tsFiles(path.join(ROOT, f))).map((f) => path.relative(ROOT, f).split(path.sep).join("/"));

  it("finds none in provider/ and emulator/: statuses are named by the contract", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => statusLiteralsIn(f, fs.readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("finds one written as a literal, in a comparison, a type or an argument", () => {
    const text = [
      'if (live.status === "PAUSED") stop();',
      'type Then = "active" | "at-once";',
      'wait({ until: ["READY"] });',
      'if (hasStatusClass("peering", p.status, "failed")) fail();',
      'child.on("error", () => undefined);',
      '// a comment naming "READY" is no literal',
      'const message = "the service is READY";',
    ].join("\n");
    expect(statusLiteralsIn("provider/example.ts", text)).toEqual([
      'provider/example.ts:1 "PAUSED"',
      'provider/example.ts:2 "active"',
      'provider/example.ts:3 "READY"',
    ]);
  });

  it("lets a word of a message that is spelled like a status pass only where it is listed", () => {
    const text = 'const VERBS = { delete: "deleting" };';
    expect(statusLiteralsIn("provider/framework/userErrors.ts", text)).toEqual([]);
    expect(statusLiteralsIn("provider/framework/other.ts", text)).toEqual(['provider/framework/other.ts:1 "deleting"']);
  });
});
