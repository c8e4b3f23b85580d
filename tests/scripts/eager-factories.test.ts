/**
 * The Node.js route's scripts have their module wrappers compiled with the script
 * (scripts/plugin/eager-factories.js): a first start with no code cache then parses each
 * wrapper once. V8 reports each function it compiles (`--log-function-events`); a wrapper it
 * compiled only when the module was first required shows as a `parse-function` event. On
 * V8 12 and older (Node.js 22 and 20) that is what a parenthesized arrow got; a
 * parenthesized `function` expression is compiled with the script on every Node.js.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const { eagerFactories } = require("../../scripts/plugin/eager-factories") as { eagerFactories: (file: string) => number };

/**
 * A script laid out as esbuild's minified bundles are: a wrapper helper, modules as arrows
 * handed to it, the last using the arrow's own `this` (the script's: its CommonJS exports).
 */
const BUNDLE = [
  "var h=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);",
  "var a=h((e,t)=>{t.exports={answer:()=>42}});",
  "var b=h((e,t)=>{t.exports={sum:a().answer()+1}});",
  "var c=h((e,t)=>{t.exports={outer:this}});",
  "module.exports={sum:b().sum,outerIsExports:c().outer===module.exports};",
].join("");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-eager-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `file` on this Node.js with V8's function events logged: what it exported, and the spans (start-end) of the functions V8 compiled lazily. */
function run(file: string): { exported: unknown; lazy: string[] } {
  const log = path.join(dir, "v8.log");
  const r = spawnSync(
    process.execPath,
    [
      "--log-function-events",
      `--logfile=${log}`,
      "--no-logfile-per-isolate",
      "-e",
      `process.stdout.write(JSON.stringify(require(${JSON.stringify(file)})))`,
    ],
    { encoding: "utf8" },
  );
  expect(r.stderr).toBe("");
  const lines = fs.readFileSync(log, "utf8").split("\n");
  const id = lines.find((l) => l.startsWith("script-details,") && l.includes(file))?.split(",")[1];
  expect(id).toBeDefined();
  const lazy = lines.filter((l) => l.startsWith(`function,parse-function,${id},`)).map((l) => l.split(",").slice(3, 5).join("-"));
  return { exported: JSON.parse(r.stdout), lazy };
}

/** The spans (start-end, as V8 counts them, from the `(` of the parameters) of the wrappers in the script at `file`. */
function wrapperSpans(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/=h\(\((function)?\(/g)].map((m) => {
    const start = m.index + m[0].length - 1;
    let depth = 0;
    let end = start;
    for (let i = text.indexOf("{", start); i < text.length; i++) {
      if (text[i] === "{") depth++;
      if (text[i] === "}" && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    return `${start}-${end}`;
  });
}

test("each module wrapper is compiled with its script, not when first required; the modules run as before", () => {
  const file = path.join(dir, "bundle.js");
  fs.writeFileSync(file, BUNDLE);
  const before = run(file);

  expect(eagerFactories(file)).toBe(3);
  const after = run(file);

  expect(after.exported).toEqual({ sum: 43, outerIsExports: true });
  expect(after.exported).toEqual(before.exported);
  const [a, b] = wrapperSpans(file);
  // The two wrappers free of the arrow's own `this` are compiled with the script...
  expect(after.lazy).not.toContain(a);
  expect(after.lazy).not.toContain(b);
  // ...the one using it stays an arrow (its `this` still the script's), in parentheses.
  expect(fs.readFileSync(file, "utf8")).toContain("var c=h(((e,t)=>{t.exports={outer:this}}))");
});
