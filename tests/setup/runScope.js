/**
 * What one jest run leaves behind, bounded: every test process works under a temp directory
 * of the run's own (TMPDIR, so `os.tmpdir()` in the tests, the harness, the emulator and the
 * provider processes they start), and every process started during the run carries the
 * run's marker in its environment. At the end of the run (`globalTeardown`), the processes
 * still marked are ended and the directory removed: a test that fails or times out
 * half-way, before its `afterAll` closed what it started (plugin processes, emulators,
 * PostgreSQL), leaves nothing behind. The end also says how many dynamic-provider plugin
 * processes the harness started (each start adds a line to `CLOUDDB_PLUGIN_STARTS`): what a
 * run's cost mostly grows with; and how many in-process hosts (harness/inProcessHost.ts).
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");

/** The environment variable that marks the run's processes: its value is the run's directory. */
const MARKER = "CLOUDDB_TEST_RUN";
/** The environment variable naming the file the harness adds a line to per plugin process it starts. */
const PLUGIN_STARTS = "CLOUDDB_PLUGIN_STARTS";

/** Creates the run's directory and points TMPDIR and the marker at it; the workers inherit both. */
function open() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-test-run-"));
  // Others may pass through, as through /tmp (not list it): run as root, the emulator's
  // PostgreSQL servers run as another user, in directories of their own below this one.
  fs.chmodSync(dir, 0o711);
  process.env[MARKER] = dir;
  process.env.TMPDIR = dir;
  process.env[PLUGIN_STARTS] = path.join(dir, "plugin-starts");
}

/** How many provider hosts the harness started in the run: plugin processes (a line with a pid each) and in-process hosts. */
function hostStarts(dir) {
  let lines = [];
  try {
    lines = fs
      .readFileSync(path.join(dir, "plugin-starts"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    // none started
  }
  const inProcess = lines.filter((l) => l === "in-process").length;
  return { processes: lines.length - inProcess, inProcess };
}

/** The processes whose environment carries `dir` as the run's marker (Linux: /proc), this one excepted. */
function marked(dir) {
  const entry = `${MARKER}=${dir}`;
  let pids;
  try {
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return []; // no /proc: nothing to find
  }
  return pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry);
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

/**
 * Ends the processes the run left (SIGKILL: a test that left them has already failed) and
 * removes the run's directory. Says what it ended, since only a failed test leaves any.
 */
function close() {
  const dir = process.env[MARKER];
  if (!dir) return;
  const left = marked(dir);
  for (const pid of left) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (left.length > 0) console.log(`\nEnded ${left.length} process(es) that failed tests left running.`);
  const starts = hostStarts(dir);
  if (starts.processes + starts.inProcess > 0) {
    console.log(
      `\nThe harness started ${starts.processes} dynamic-provider plugin process(es) (the real CLI's own are not counted) ` +
        `and ${starts.inProcess} in-process host(s).`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

module.exports = { open, close };
