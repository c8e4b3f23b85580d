// @ts-check
/**
 * V8's hint to compile a bundle's module wrappers at once, for the Node.js route's scripts:
 * esbuild wraps each CommonJS module in a function (`var x = b((exports, module) => {...})`)
 * that runs when the module is first required, which at a start is nearly every module. V8
 * compiles a script's functions lazily: it pre-parses each wrapper as it compiles the script,
 * then parses it again, whole, when it first runs. A function in parentheses is one V8
 * expects to be called soon, and compiles with the script (V8's "possibly invoked function
 * expression" heuristic), so each wrapper is parsed once. V8 follows the hint for a
 * `function` expression on every Node.js the plugin runs on, but for an arrow function (the
 * form esbuild writes its minified wrappers in) only from V8 13 (Node.js 24): on Node.js 22
 * and 20 the parenthesized arrows were still compiled when first called (zod's part ran in 48
 * ms there, 20 ms as `function` expressions). So each wrapper whose body does not use the
 * arrow's own `this` or `arguments` is written as a `function` expression with the same
 * parameters and body (the others stay arrows, in parentheses). Where a code cache exists
 * (every start but a plugin's first on a machine) it changes nothing: the cache holds the
 * compiled wrappers either way.
 *
 * {@link eagerFactories} rewrites them: the one function argument of each call, at the
 * script's top level, of esbuild's wrapper helpers (top-level `var`s whose value is an arrow
 * function returning a function: `__commonJS`, `__esm`).
 */
"use strict";
const fs = require("fs");

/** @typedef {{ type: string, start: number, end: number, [k: string]: any }} Node */

/** Whether `n` is a function expression (arrow or not). @param {Node | null | undefined} n */
const isFunction = (n) => n?.type === "ArrowFunctionExpression" || n?.type === "FunctionExpression";

/**
 * Whether `fn`'s body uses what an arrow function takes from the code around it (`this`,
 * `arguments`, `new.target`, `super`) outside the non-arrow functions it holds: such an arrow
 * cannot become a `function` expression unchanged. A class's field initializers count (their
 * `this` is the instance's, but telling them apart is not worth it: the wrapper stays an arrow).
 * @param {Node} fn
 */
function usesOwnThis(fn) {
  /** @type {(n: unknown) => boolean} */
  const visit = (n) => {
    if (n === null || typeof n !== "object") return false;
    if (Array.isArray(n)) return n.some(visit);
    const node = /** @type {Node} */ (n);
    if (node.type === "FunctionExpression" || node.type === "FunctionDeclaration") return false;
    if (node.type === "ThisExpression" || node.type === "Super" || node.type === "MetaProperty") return true;
    if (node.type === "Identifier" && node.name === "arguments") return true;
    return Object.entries(node).some(([k, v]) => k !== "type" && visit(v));
  };
  return visit(fn.params) || visit(fn.body);
}

/**
 * The text of wrapper `w` (in `source`) as V8 compiles it with its script: a `function`
 * expression in parentheses where {@link usesOwnThis} allows (and its body is a block), else
 * the arrow itself in parentheses.
 * @param {string} source
 * @param {Node} w
 */
function eagerText(source, w) {
  if (w.type === "ArrowFunctionExpression" && !w.async && w.body.type === "BlockStatement" && !usesOwnThis(w)) {
    const params = w.params.map((/** @type {Node} */ p) => source.slice(p.start, p.end)).join(",");
    return `(function(${params})${source.slice(w.body.start, w.body.end)})`;
  }
  return `(${source.slice(w.start, w.end)})`;
}

/**
 * Rewrites the script at `file` with its module wrappers in parentheses (as `function`
 * expressions where that changes nothing else); how many it wrapped.
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
    out += `${source.slice(at, w.start)}${eagerText(source, w)}`;
    at = w.end;
  }
  fs.writeFileSync(file, out + source.slice(at));
  return wrappers.length;
}

module.exports = { eagerFactories };
