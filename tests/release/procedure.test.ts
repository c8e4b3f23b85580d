/**
 * The release procedure (CONTRIBUTING.md, "Releasing") as it shows in the repository: the
 * version in package.json is the newest release of CHANGELOG.md, every release there has
 * its upgrade fixture (the state a stack has under it, which every later release must
 * preview without change) and its link, and every release has its tag on a commit of that
 * version (and, from 0.2.0, its Go module's tag on the same commit). CI runs it with the
 * suite, so a release that skipped a step fails. The steps are one command,
 * `npm run release:cut` (scripts/release/cut.js).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

const REPOSITORY = "https://github.com/clouddb/pulumi-clouddb";
/** The Go SDK's folder: its tags are `<folder>/v<version>`. */
const GO_MODULE = "sdk-native/go/clouddb";
const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; files: string[]; repository: { url: string } };
const changelog = read("CHANGELOG.md");

/** The released versions of the changelog, newest first, with their dates. */
const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => ({ version: m[1], date: m[2] }));

/** `a` compared with `b` as semantic versions (major.minor.patch). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** `git <args>` in the repository; undefined when git cannot run there. */
function git(...args: string[]): string | undefined {
  const r = spawnSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

describe("the release procedure", () => {
  it("gives package.json's version, the newest release, its changelog entry under Unreleased", () => {
    expect(changelog).toMatch(/^# Changelog\n/);
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe("[Unreleased]");
    expect(headings.slice(1).every((h) => /^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/.test(h))).toBe(true);
    expect(releases.length).toBeGreaterThanOrEqual(1);
    expect(releases[0].version).toBe(pkg.version);
  });

  it("lists the releases newest first, each once, dated in order", () => {
    const versions = releases.map((r) => r.version);
    expect([...versions].sort((a, b) => compareVersions(b, a))).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    const dates = releases.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("links every release to its tag, and Unreleased to what follows the newest", () => {
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    const links = Object.fromEntries([...changelog.matchAll(/^\[([^\]]+)\]: (\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(links).toEqual({
      Unreleased: `${REPOSITORY}/compare/v${pkg.version}...HEAD`,
      ...Object.fromEntries(releases.map((r) => [r.version, `${REPOSITORY}/releases/tag/v${r.version}`])),
    });
  });

  it("records an upgrade fixture for every release, and none for a version never released", () => {
    const fixtures = path.join(REPO_ROOT, "tests", "upgrade", "fixtures");
    const recorded = fs.readdirSync(fixtures).sort(compareVersions);
    expect(recorded).toEqual(releases.map((r) => r.version).reverse());
    for (const version of recorded) {
      expect(fs.readdirSync(path.join(fixtures, version)).sort()).toEqual(["checkpoint.json", "emulator"]);
    }
  });

  it("sets the version in package-lock.json too, and ships the changelog", () => {
    const lock = JSON.parse(read("package-lock.json")) as { version: string; packages: Record<string, { version?: string }> };
    expect([lock.version, lock.packages[""].version]).toEqual([pkg.version, pkg.version]);
    expect(pkg.files).toContain("CHANGELOG.md");
  });

  it("tags each release v<version> on a commit of that version, and its Go module on the same commit", () => {
    const tags = git("tag", "--list", "v*");
    if (tags === undefined || tags === "") {
      // A checkout without tags (a shallow CI clone, or before the first tag is pushed) has nothing to check here.
      console.log("the release procedure: no v* tags in this checkout, the tag check was skipped");
      return;
    }
    const released = new Set(releases.map((r) => r.version));
    for (const tag of tags.split("\n")) {
      const version = tag.slice(1);
      expect({ tag, released: released.has(version) }).toEqual({ tag, released: true });
      const tagged = JSON.parse(git("show", `${tag}:package.json`) ?? "{}") as { version?: string };
      expect({ tag, version: tagged.version }).toEqual({ tag, version });
    }
    // Every release has its tag (release:cut refuses to cut while one lacks it); 0.1.0 is the commit its fixture was recorded at.
    expect(releases.map((r) => r.version).filter((v) => !tags.split("\n").includes(`v${v}`))).toEqual([]);
    expect(git("rev-parse", "v0.1.0^{commit}")).toMatch(/^fab13e8/);
    // From the release that has the Go SDK, its module's tag (a module in a subfolder: <folder>/v<version>) is on the same commit.
    for (const { version } of releases) {
      if (git("cat-file", "-e", `v${version}:${GO_MODULE}/go.mod`) === undefined) continue;
      expect({ version, go: git("rev-parse", `${GO_MODULE}/v${version}^{commit}`) }).toEqual({
        version,
        go: git("rev-parse", `v${version}^{commit}`),
      });
    }
  });
});
