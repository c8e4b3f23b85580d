// @ts-check
/**
 * Loaded into the Node.js processes of a `pulumi` command with
 * `NODE_OPTIONS="--require <this file>"` (which the native plugin's launcher passes on, and the
 * dynamic-provider host inherits) to profile them: Node.js 24 refuses `--cpu-prof` in
 * `NODE_OPTIONS`, and a plugin given it exits at once. It starts the inspector's sampling
 * profiler at once (every 200 µs, or `$CLOUDDB_CPU_PROFILE_US`) and writes the profile to
 * `$CLOUDDB_CPU_PROFILE_DIR/<script>.<pid>.cpuprofile` (Chrome DevTools and `speedscope` open it)
 * when the process exits or the engine ends it (SIGINT, SIGTERM, SIGHUP: it then exits). Nothing
 * of the product loads it; without that variable it does nothing (docs/performance/large-stacks.md, "Where a
 * refresh's time goes").
 */
"use strict";
const fs = require("fs");
const inspector = require("inspector");
const path = require("path");

const dir = process.env.CLOUDDB_CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(process.env.CLOUDDB_CPU_PROFILE_US) || 200 });
  session.post("Profiler.start");
  let written = false;
  // The main thread's session answers at once, so this works in an `exit` handler too.
  const write = () => {
    if (written) return;
    written = true;
    session.post("Profiler.stop", (err, result) => {
      if (err) return;
      const script = path.basename(process.argv[1] || "node").replace(/\W/g, "_");
      try {
        fs.writeFileSync(path.join(dir, `${script}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      } catch {
        // A profile that cannot be written is only lost.
      }
    });
  };
  process.on("exit", write);
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
    process.once(signal, () => {
      write();
      process.exit(0);
    });
  }
}
