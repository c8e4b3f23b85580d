/**
 * Every example is a Pulumi project of its own that runs as written: its `Pulumi.yaml`
 * (project `clouddb-<dir>`, Node.js runtime), a `package.json` naming its program, a
 * README saying how to run it, a test suite, and a program that compiles under Pulumi's
 * TypeScript template tsconfig (its own `tsconfig.json`) against the built package.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { parse } from "yaml";
import { REPO_ROOT } from "../../harness";

const EXAMPLES = path.join(REPO_ROOT, "examples");
// The native plugin's examples (`native-<language>`) run under the real CLI: tests/native/cli.
// The Automation API's (`automation-<name>`) are programs that drive the CLI, not projects it
// runs: tests/cli/automationTenants.test.ts; they compile with the others.
const dirs = fs
  .readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("native-"))
  .map((d) => d.name)
  .sort();
const names = dirs.filter((d) => !d.startsWith("automation-"));
const { examples: runnable } = require("../../scripts/lib/projects") as { examples(root: string): string[] };

describe("examples", () => {
  it("are the projects `npm run up -- <example>` runs", () => {
    expect(names.length).toBeGreaterThanOrEqual(8);
    expect(runnable(REPO_ROOT)).toEqual(names);
  });

  it.each(names)("%s is a Pulumi project with a package.json, a how-to-run and a test suite", (name) => {
    const dir = path.join(EXAMPLES, name);
    const project = parse(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
    expect(project).toMatchObject({ name: `clouddb-${name}`, runtime: { name: "nodejs", options: { typescript: true } } });
    expect(String(project.description).length).toBeGreaterThan(20);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: `clouddb-${name}`, private: true, main: "index.ts" });
    expect(fs.existsSync(path.join(dir, "index.ts"))).toBe(true);
    const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
    expect(readme).toMatch(/^## How to run$/m);
    expect(readme).toContain(name === "quickstart" ? "npm run up" : `npm run up -- ${name}`);
    expect(fs.existsSync(path.join(REPO_ROOT, "tests", "examples", `${name}.test.ts`))).toBe(true);
  });

  it("compile under Pulumi's template tsconfig against the built package", () => {
    const configs = dirs.map((name) => {
      const file = path.join(EXAMPLES, name, "tsconfig.json");
      const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(file, (f) => ts.sys.readFile(f)).config, ts.sys, path.dirname(file));
      return { name, options: parsed.options, files: parsed.fileNames };
    });
    // One template for all: compile them together.
    for (const c of configs)
      expect({ ...c.options, configFilePath: undefined, outDir: undefined }).toEqual({
        ...configs[0].options,
        configFilePath: undefined,
        outDir: undefined,
      });
    const program = ts.createProgram(
      configs.flatMap((c) => c.files),
      { ...configs[0].options, noEmit: true },
    );
    // Findings in third-party declarations are left out: they come from this repository's
    // dev-dependency tree (with @pulumi/pulumi 3.216, got's types meet the keyv 5 that
    // eslint hoists), not from what a program gets; the packaging test compiles a fresh
    // project with nothing skipped. The package itself resolves to dist/ (its real path).
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => !d.file?.fileName.includes("/node_modules/"))
      .map(
        (d) => `${d.file ? path.relative(REPO_ROOT, d.file.fileName) + ": " : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    expect(diagnostics).toEqual([]);
  });
});
