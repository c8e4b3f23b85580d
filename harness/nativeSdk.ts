/**
 * The native plugin's TypeScript SDK (`sdk-native/nodejs`, generated) compiled in this
 * repository, for programs run in this process (tests, benchmarks): its own `tsc` settings,
 * no type check (the SDK's own build checks it, tests/native/cli), into a folder under
 * `node_modules` keyed by its content, so that it loads this repository's `@pulumi/pulumi`,
 * the one a test gives its mocks to.
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "./stack";

/** A hash of the files under `dirs` (relative to the repository), for cache keys. */
export function treeHash(...dirs: string[]): string {
  const h = createHash("sha256");
  const walk = (dir: string): void => {
    if (fs.statSync(dir).isFile()) {
      h.update(path.relative(REPO_ROOT, dir)).update(fs.readFileSync(dir));
      return;
    }
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== "bin") walk(full);
      } else if (!e.name.endsWith(".map") && !e.name.endsWith(".d.ts")) {
        h.update(path.relative(REPO_ROOT, full)).update(fs.readFileSync(full));
      }
    }
  };
  for (const d of dirs) walk(path.join(REPO_ROOT, d));
  return h.digest("hex").slice(0, 16);
}

/** The folder of `sdk-native/nodejs` compiled (its `index.js` the package's entry point, its package.json beside), compiling it if it is not yet. */
export function compiledNativeSdk(): string {
  const parent = path.join(REPO_ROOT, "node_modules", ".cache", "clouddb-native-ts-sdk");
  const dir = path.join(parent, treeHash("sdk-native/nodejs"));
  if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  const aside = `${dir}.${process.pid}`;
  const tsc = require.resolve("typescript/bin/tsc");
  const project = path.join(REPO_ROOT, "sdk-native", "nodejs", "tsconfig.json");
  execFileSync(
    process.execPath,
    [tsc, "-p", project, "--outDir", aside, "--noCheck", "--declaration", "false", "--declarationMap", "false"],
    {
      stdio: "pipe",
    },
  );
  // Beside the output, as the package is packed (its version is read from there).
  fs.copyFileSync(path.join(REPO_ROOT, "sdk-native", "nodejs", "package.json"), path.join(aside, "package.json"));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(aside, dir);
  return dir;
}
