// @ts-check
/**
 * V8's hint to compile a bundle's module wrappers at once, for the Node.js route's scripts:
 * esbuild wraps each CommonJS module in a function (`var x = b((exports, module) => {...})`)
 * that runs when the module is first required, which at a start is nearly every module. V8
 * compiles a script's functions lazily: it pre-parses each wrapper as it compiles the script,
 * then parses it again, whole, when it first runs. A function in parentheses is one V8
 * expects to be called soon, and compiles with the script (Node.js 20 and 24 alike: V8's
 * "possibly invoked function expression" heuristic), so each wrapper is parsed once. Where a
 * code cache exists (every start but a plugin's first on a machine) it changes nothing: the
 * cache holds the compiled wrappers either way.
 *
 * {@link eagerFactories} puts the parentheses in: around the one function argument of each
 * call, at the script's top level, of esbuild's wrapper helpers (top-level `var`s whose value
 * is an arrow function returning a function: `__commonJS`, `__esm`).
 */
"use strict";
const fs = require("fs");

/** @typedef {{ type: string, start: number, end: number, [k: string]: any }} Node */

/** Whether `n` is a function expression (arrow or not). @param {Node | null | undefined} n */
const isFunction = (n) => n?.type === "ArrowFunctionExpression" || n?.type === "FunctionExpression";

/**
 * Rewrites the script at `file` with its module wrappers in parentheses; how many it wrapped.
 * @param {string} file
 */
function eagerFactories(file) {
  const acorn = require("acorn");
  const source = fs.readFileSync(file, "utf8");
  const program = /** @type {Node} */ (
    /** @type {unknown} */ (
      acorn.parse(source, { ecmaVersion: "latest", sourceType: "script", allowHashBang: true, allowReturnOutsideFunction: true })
    )
  );
  /** @type {Node[]} */
  const declarations = program.body
    .filter((/** @type {Node} */ s) => s.type === "VariableDeclaration")
    .flatMap((/** @type {Node} */ s) => s.declarations);
  const helpers = new Set(
    declarations
      .filter((d) => d.id.type === "Identifier" && d.init?.type === "ArrowFunctionExpression" && isFunction(d.init.body))
      .map((d) => d.id.name),
  );
  /** @type {Node[]} */
  const wrappers = declarations
    .map((d) => d.init)
    .filter((c) => c?.type === "CallExpression" && c.callee.type === "Identifier" && helpers.has(c.callee.name) && c.arguments.length === 1)
    .map((c) => c.arguments[0])
    .filter(isFunction);
  let out = "";
  let at = 0;
  for (const w of wrappers.sort((a, b) => a.start - b.start)) {
    out += `${source.slice(at, w.start)}(${source.slice(w.start, w.end)})`;
    at = w.end;
  }
  fs.writeFileSync(file, out + source.slice(at));
  return wrappers.length;
}

module.exports = { eagerFactories };
