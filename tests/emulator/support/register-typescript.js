/**
 * Lets a plain `node` child process run the emulator's TypeScript sources directly
 * (`node -r tests/emulator/support/register-typescript.js emulator/cli.ts`), so the CLI
 * tests exercise the current source without a build step. Transpile only, no type check.
 */
"use strict";
const fs = require("fs");
const ts = require("typescript");

require.extensions[".ts"] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, "utf8");
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};
