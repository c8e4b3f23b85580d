/**
 * A pacing directory of its own for each test of a describe block (the machine's shared
 * schedule and lists live there: sharedSchedule.ts, sharedLists.ts), removed after it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** Registers, in the calling describe block, a fresh pacing directory per test; call the result for its path. */
export function pacingDirPerTest(): () => string {
  let dir = "";
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pacing-")), "pacing");
  });
  afterEach(() => {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
  return () => dir;
}
