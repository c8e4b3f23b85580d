#!/usr/bin/env node
// @ts-check
/**
 * CI step (run even when an earlier step failed): stops the emulator that
 * start-emulator.js started, named by CLOUDDB_EMULATOR_PID, and waits until it is gone.
 */
"use strict";

const pid = Number(process.env.CLOUDDB_EMULATOR_PID);

/** @param {number} id */
function alive(id) {
  try {
    process.kill(id, 0);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) {
    process.stdout.write("No emulator to stop.\n");
    return;
  }
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, "SIGKILL");
  process.stdout.write(`Stopped the emulator (pid ${pid}).\n`);
}

main().catch((e) => {
  process.stderr.write(`stop-emulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
