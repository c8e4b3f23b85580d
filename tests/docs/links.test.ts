/**
 * The repository's Markdown pages link to what exists: every relative link of a tracked `.md`
 * file names a file or folder of the repository, and its `#anchor`, if any, a heading of that
 * page (as GitHub makes a heading's anchor: see {@link anchorOf}); a Registry page's link by name
 * (`./installation-configuration`) names its `.md`. Links inside code blocks and inline code are
 * not links. Absolute URLs are not checked (no network here).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

/** The tracked Markdown files, relative to the root, generated SDKs' copies left out. */
function markdownFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\n").filter((f) => f !== "" && !f.startsWith("sdk-native/") && fs.existsSync(path.join(ROOT, f)));
}

/** `markdown` without its fenced code blocks (their lines kept empty, so line numbers hold). */
function withoutFences(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/**
 * GitHub's anchor of a heading's text: lower case, inline code's backticks and every character
 * other than a letter, a digit, a space, `-` or `_` dropped, spaces made `-`; a repeated anchor
 * gets `-1`, `-2`, ... in the order of the page.
 */
export function anchorOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a page's headings. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(fs.readFileSync(file, "utf8"))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = anchorOf(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Each relative link of `file`: `line: target`, for those that do not resolve. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  const lines = withoutFences(fs.readFileSync(path.join(ROOT, file), "utf8"));
  lines.forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, "");
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [where, anchor] = target.split("#", 2);
      const resolved = where === "" ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), decodeURI(where));
      // The Registry's pages (docs/_index.md) link to each other by name, without `.md`.
      if (!fs.existsSync(resolved) && !fs.existsSync(`${resolved}.md`)) {
        broken.push(`${file}:${i + 1}: ${target} (no such file)`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
        broken.push(`${file}:${i + 1}: ${target} (no such heading)`);
    }
  });
  return broken;
}

describe("the Markdown pages' links", () => {
  it("makes GitHub's anchors of headings", () => {
    expect(anchorOf("The plugin's memory (issue 44)")).toBe("the-plugins-memory-issue-44");
    expect(anchorOf("`npm run bench`: the figures of one run")).toBe("npm-run-bench-the-figures-of-one-run");
    expect(anchorOf("Set-up: two commands")).toBe("set-up-two-commands");
  });

  it("finds a link that leads nowhere", () => {
    const dir = fs.mkdtempSync(path.join(ROOT, ".links-test-"));
    try {
      fs.writeFileSync(path.join(dir, "a.md"), "# A page\n\n[ok](#a-page) [gone](b.md) [no heading](a.md#nothing)\n");
      const rel = path.relative(ROOT, path.join(dir, "a.md"));
      expect(brokenLinks(rel).map((b) => b.replace(/^.*?: /, ""))).toEqual(["b.md (no such file)", "a.md#nothing (no such heading)"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leads every relative link of the repository's pages to a file and heading that exist", () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/performance/README.md"]));
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });
});
