/**
 * What a packed package holds, as installed: its files, its `exports` targets, and its
 * source maps.
 */
import * as fs from "fs";
import * as path from "path";

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(full);
      } else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

type ExportTarget = string | { [condition: string]: ExportTarget };

/** Every file path an `exports` map names, wildcards expanded against the files present. */
export function exportTargets(exportsMap: Record<string, ExportTarget>, files: string[]): { subpath: string; target: string }[] {
  const out: { subpath: string; target: string }[] = [];
  const visit = (subpath: string, t: ExportTarget): void => {
    if (typeof t !== "string") {
      for (const v of Object.values(t)) visit(subpath, v);
      return;
    }
    const target = t.replace(/^\.\//, "");
    if (!target.includes("*")) {
      out.push({ subpath, target });
      return;
    }
    const [before, after] = target.split("*") as [string, string];
    const matches = files.filter((f) => f.startsWith(before) && f.endsWith(after));
    if (matches.length === 0) out.push({ subpath, target }); // reported as missing
    for (const f of matches) out.push({ subpath: subpath.replace("*", f.slice(before.length, f.length - after.length)), target: f });
  };
  for (const [subpath, t] of Object.entries(exportsMap)) visit(subpath, t);
  return out;
}

/** Source maps among `files` whose sources are neither shipped nor embedded. */
export function mapsWithoutSources(dir: string, files: string[]): string[] {
  const bad: string[] = [];
  for (const file of files.filter((f) => f.endsWith(".map"))) {
    const map = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
    map.sources.forEach((source, i) => {
      const shipped = fs.existsSync(path.resolve(path.dirname(path.join(dir, file)), source));
      if (!shipped && typeof map.sourcesContent?.[i] !== "string") bad.push(`${file} -> ${source}`);
    });
  }
  return bad;
}

/** The targets of a Markdown text's links (`[text](target)`), outside code blocks and code spans. */
export function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

/** The anchor GitHub (and npm) give a Markdown heading: lowercase, punctuation dropped, spaces to dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/**
 * The anchors of a Markdown text's headings (outside code blocks), as GitHub makes them: a
 * link in a heading counts by its text, and a repeated anchor gets `-1`, `-2`, ... in order.
 */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```$/gm, "").matchAll(/^#{1,6}\s+(.*?)\s*$/gm)) {
    const base = headingAnchor(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/**
 * The links of a Markdown file of the package at `dir` that lead nowhere from where it is
 * installed: a relative path to a file the package does not hold, or an anchor no heading
 * of the file has. Absolute `https:` links are taken as they are.
 */
export function brokenLinks(dir: string, file: string): string[] {
  const markdown = fs.readFileSync(path.join(dir, file), "utf8");
  const anchors = headingAnchors(markdown);
  return markdownLinks(markdown).filter((target) => {
    if (target.startsWith("https://")) return false;
    if (target.startsWith("#")) return !anchors.has(target.slice(1));
    return !fs.existsSync(path.join(dir, path.dirname(file), target.replace(/#.*$/, "")));
  });
}
