/**
 * Small modules: no TypeScript file of the product (contract/, provider/, sdk/, emulator/) or of
 * the harness is over 400 lines (CONTRIBUTING.md, "Layout"). A file that grows past it is split by
 * concern, not trimmed of its comments.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.join(__dirname, "..", "..");
const FOLDERS = ["contract", "provider", "sdk", "emulator", "harness"];
const MAX_LINES = 400;

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** `file: N lines` for each file longer than `max`. */
function tooLong(files: readonly string[], max: number): string[] {
  return files.flatMap((file) => {
    const lines = fs.readFileSync(file, "utf8").split("\n").length - 1;
    return lines > max ? [`${path.relative(ROOT, file)}: ${lines} lines`] : [];
  });
}

describe("file length", () => {
  const files = FOLDERS.flatMap((f) => tsFiles(path.join(ROOT, f)));

  it(`finds no file over ${MAX_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(100);
    expect(tooLong(files, MAX_LINES)).toEqual([]);
  });

  it("names a file over the limit", () => {
    const longest = files.map((f) => fs.readFileSync(f, "utf8").split("\n").length - 1).reduce((a, b) => Math.max(a, b));
    expect(tooLong(files, longest - 1).length).toBeGreaterThan(0);
  });
});
