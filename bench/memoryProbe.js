// @ts-check
/**
 * Loaded into every Node.js process of a `bench:plugin-memory -- --parts` run with
 * `NODE_OPTIONS="--require <this file>"` (which the native plugin's launcher passes on, and
 * the dynamic-provider host inherits): every 500 ms it writes what V8 says of its own memory
 * to `$CLOUDDB_MEMORY_PROBE_DIR/<pid>.json`, for bench/memoryParts.ts to set beside what
 * /proc says. Nothing of the product loads it; without that variable it does nothing.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const v8 = require("v8");

const dir = process.env.CLOUDDB_MEMORY_PROBE_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.json`);
  const write = () => {
    try {
      const m = process.memoryUsage();
      const h = v8.getHeapStatistics();
      const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]));
      const sample = {
        rss: m.rss,
        heapTotal: m.heapTotal,
        heapUsed: m.heapUsed,
        heapPhysical: h.total_physical_size,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        mallocedMemory: h.malloced_memory,
        spaces,
      };
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(sample));
      fs.renameSync(`${file}.tmp`, file);
    } catch {
      // A bench's probe: nothing to do about it.
    }
  };
  setInterval(write, 500).unref();
  write();
}
