/**
 * The repository's Markdown pages link to what exists: every relative link of a tracked `.md`
 * file names a file or folder of the repository, and its `#anchor`, if any, a heading of that
 * page (as GitHub makes a heading's anchor: the packaging test's `headingAnchors`); a Registry page's link by name
 * (`./installation-configuration`) names its `.md`. Links inside code blocks and inline code are
 * not links. A link to the repository's files on GitHub ({@link BLOB}) is checked as a relative one;
 * other absolute URLs are not (no network here).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { headingAnchor, headingAnchors, markdownLinks } from "../packaging/support/tarball";

const ROOT = path.join(__dirname, "..", "..");
/**
 * The repository's files on GitHub, as the shipped pages (README, CHANGELOG) link to what npm
 * does not ship: such a link is checked as the repository's own path.
 */
const BLOB = `${(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { homepage: string }).homepage.replace(/#.*$/, "")}/blob/main/`;

/** The tracked Markdown files, relative to the root, generated SDKs' copies left out. */
function markdownFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\n").filter((f) => f !== "" && !f.startsWith("sdk-native/") && fs.existsSync(path.join(ROOT, f)));
}

/** Each relative link of `file` (relative to the root) that does not resolve: `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const at = path.join(ROOT, file);
  return markdownLinks(fs.readFileSync(at, "utf8")).flatMap((target) => {
    const inRepository = target.startsWith(BLOB);
    if (/^[a-z]+:/i.test(target) && !inRepository) return [];
    const [where, anchor] = (inRepository ? target.slice(BLOB.length) : target).split("#", 2);
    const resolved = inRepository ? path.join(ROOT, where) : where === "" ? at : path.resolve(path.dirname(at), decodeURI(where));
    // The Registry's pages (docs/_index.md) link to each other by name, without `.md`.
    if (!fs.existsSync(resolved) && !fs.existsSync(`${resolved}.md`)) return [`${file}: ${target} (no such file)`];
    if (anchor !== undefined && resolved.endsWith(".md") && !headingAnchors(fs.readFileSync(resolved, "utf8")).has(anchor))
      return [`${file}: ${target} (no such heading)`];
    return [];
  });
}

describe("the Markdown pages' links", () => {
  it("makes GitHub's anchors of headings", () => {
    expect(headingAnchor("The plugin's memory (issue 44)")).toBe("the-plugins-memory-issue-44");
    expect(headingAnchor("`npm run bench`: the figures of one run")).toBe("npm-run-bench-the-figures-of-one-run");
    expect([...headingAnchors("# A\n## [B](b.md)\n```\n# not one\n```\n## A\n")]).toEqual(["a", "b", "a-1"]);
  });

  it("finds a link that leads nowhere", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-links-"));
    try {
      const page = `[ok](#a-page) [gone](b.md) [no heading](a.md#nothing) [on GitHub](${BLOB}CONTRIBUTING.md#no-such-section)`;
      fs.writeFileSync(path.join(dir, "a.md"), `# A page\n\n${page}\n`);
      const rel = path.relative(ROOT, path.join(dir, "a.md"));
      expect(brokenLinks(rel).map((b) => b.replace(/^.*?: /, ""))).toEqual([
        "b.md (no such file)",
        "a.md#nothing (no such heading)",
        `${BLOB}CONTRIBUTING.md#no-such-section (no such heading)`,
      ]);
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
