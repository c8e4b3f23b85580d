/**
 * What a Node.js plugin's resident set is made of (`bench:plugin-memory -- --parts`), from
 * /proc/<pid>/smaps (what the kernel holds for it) and, where bench/memoryProbe.js runs in it,
 * what V8 says of its own heap:
 * - `v8Heap`: V8's heap, committed and touched (`total_physical_size`: the young and old
 *   generations, code, large objects);
 * - `mallocMain`: glibc's main allocation arena (`[heap]`, grown with brk);
 * - `mallocThreads`: glibc's per-thread arenas (64 MB-aligned anonymous regions of 64 MB with
 *   their reserved, unreadable tail: how glibc's `new_heap` maps them on 64-bit Linux), and
 *   how many there are: one per thread that allocated while the others were busy, up to
 *   `MALLOC_ARENA_MAX` (8 per core by default);
 * - `otherAnon`: the rest of the anonymous memory (V8's heap is in it, so `otherAnon - v8Heap`
 *   is what neither glibc's arenas nor V8's heap hold: thread stacks, large allocations glibc
 *   maps on their own, V8's own reservations);
 * - `file`: pages of files (Node.js's binary, shared libraries, the bundle), shared with
 *   other processes that map them;
 * - `external` / `arrayBuffers`: what V8 counts outside its heap (Buffers, grpc-js's among
 *   them), allocated with malloc, so inside the arenas above.
 */
import * as fs from "fs";
import * as path from "path";

/** The parts of one process's resident set, MB (see the module's description). */
export interface MemoryParts {
  rss: number;
  file: number;
  mallocMain: number;
  mallocThreads: number;
  arenas: number;
  otherAnon: number;
  v8Heap?: number;
  external?: number;
  arrayBuffers?: number;
  /** The largest mappings of `otherAnon` by resident set: [size, resident] MB, with the permissions. */
  otherLargest?: [number, number, string][];
  /** V8's heap by space (new_space, old_space, code_space, large_object_space, …), physical. */
  v8Spaces?: Record<string, number>;
}

const ARENA = 64 * 1024 * 1024;
const MB = 1024 * 1024;

interface Mapping {
  start: number;
  end: number;
  perms: string;
  name: string;
  rssKb: number;
  anonKb: number;
}

/** The mappings of /proc/<pid>/smaps. */
function mappings(text: string): Mapping[] {
  const out: Mapping[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      out.push({ start: parseInt(head[1], 16), end: parseInt(head[2], 16), perms: head[3], name: head[4], rssKb: 0, anonKb: 0 });
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    const last = out[out.length - 1];
    if (field && last) {
      if (field[1] === "Rss") last.rssKb = Number(field[2]);
      else last.anonKb = Number(field[2]);
    }
  }
  return out;
}

/** Splits `smaps` (a process's /proc/<pid>/smaps) into {@link MemoryParts}, less what the probe adds. */
export function partsOfSmaps(smaps: string): MemoryParts {
  const maps = mappings(smaps);
  const parts: MemoryParts = { rss: 0, file: 0, mallocMain: 0, mallocThreads: 0, arenas: 0, otherAnon: 0 };
  const others: [number, number, string][] = [];
  maps.forEach((m, i) => {
    const rss = m.rssKb / 1024;
    parts.rss += rss;
    const next = maps[i + 1];
    const size = m.end - m.start;
    const arena =
      m.name === "" &&
      m.perms.startsWith("rw") &&
      m.start % ARENA === 0 &&
      (size === ARENA || (next !== undefined && next.start === m.end && next.perms.startsWith("---") && next.end - m.start === ARENA));
    if (m.name === "[heap]") parts.mallocMain += rss;
    else if (arena) {
      parts.mallocThreads += rss;
      parts.arenas++;
    } else if (m.name === "" || m.name.startsWith("[")) {
      parts.otherAnon += rss;
      others.push([Math.round((size / MB) * 10) / 10, Math.round(rss * 10) / 10, m.perms]);
    } else {
      parts.file += (m.rssKb - m.anonKb) / 1024;
      parts.otherAnon += m.anonKb / 1024;
    }
  });
  parts.otherLargest = others.sort((a, b) => b[1] - a[1]).slice(0, 8);
  return parts;
}

/** {@link MemoryParts} of process `pid` now, with what bench/memoryProbe.js last wrote of it into `probeDir`. */
export function memoryParts(pid: number, probeDir: string | undefined): MemoryParts | undefined {
  let parts: MemoryParts;
  try {
    parts = partsOfSmaps(fs.readFileSync(`/proc/${pid}/smaps`, "utf8"));
  } catch {
    return undefined;
  }
  const file = probeDir && path.join(probeDir, `${pid}.json`);
  if (file && fs.existsSync(file)) {
    const p = JSON.parse(fs.readFileSync(file, "utf8")) as {
      heapPhysical: number;
      external: number;
      arrayBuffers: number;
      spaces: Record<string, number>;
    };
    const v8Spaces = Object.fromEntries(Object.entries(p.spaces).map(([k, v]) => [k, Math.round((v / MB) * 10) / 10]));
    Object.assign(parts, { v8Heap: p.heapPhysical / MB, external: p.external / MB, arrayBuffers: p.arrayBuffers / MB, v8Spaces });
  }
  return parts;
}

/** One line of the parts, MB: `rss 126 = file 40 + malloc 10 + arenas 30 (12) + other 46 (V8 heap 30; external 3)`. */
export function partsLine(p: MemoryParts): string {
  const f = (v: number | undefined): string => (v === undefined ? "?" : v.toFixed(1));
  return (
    `rss ${f(p.rss)} = file ${f(p.file)} + [heap] ${f(p.mallocMain)} + thread arenas ${f(p.mallocThreads)} (${p.arenas})` +
    ` + other anon ${f(p.otherAnon)} (V8 heap ${f(p.v8Heap)}; external ${f(p.external)}, arrayBuffers ${f(p.arrayBuffers)})` +
    (p.otherLargest ? `\n    largest other: ${p.otherLargest.map(([size, rss, perms]) => `${rss} of ${size} ${perms}`).join(", ")}` : "") +
    (p.v8Spaces
      ? `\n    V8 spaces: ${Object.entries(p.v8Spaces)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`
      : "")
  );
}
