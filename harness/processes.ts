/** What the harness reads of processes (Linux: /proc): whether one runs, and its descendants. */
import * as fs from "fs";

/** True while process `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** The descendants of `pid`, parents before children (Linux: /proc/<pid>/task/<pid>/children). */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}
