/**
 * The release's files, as `npm run release:build` writes them and the rehearsal and the
 * publish step check them: SHA256SUMS catches an altered or missing file, or one it does not
 * list; the version is package.json's everywhere (Python's in PEP 440 form); the release
 * notes are the CHANGELOG's section; the cut turns Unreleased into the release the procedure
 * test expects.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

const { writeSums, checkSums } = require("../../scripts/release/sums") as {
  writeSums: (dir: string, files: string[]) => string;
  checkSums: (dir: string, expected?: string[]) => Map<string, string>;
};
const versions = require("../../scripts/release/versions") as {
  pep440: (v: string) => string;
  checkVersions: () => string | undefined;
  changelogSection: (v: string, text?: string) => { date: string; text: string };
  packageVersion: () => string;
};
const { cutChangelog } = require("../../scripts/release/changelog") as { cutChangelog: (text: string, v: string, date: string) => string };

const changelog = fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");

describe("SHA256SUMS of a release", () => {
  let dir: string;
  const files = ["plugin/a-linux-amd64.tar.gz", "plugin/a-standalone-linux-amd64.tar.gz", "npm/p.tgz"];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-sums-"));
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), `contents of ${f}`);
    }
    writeSums(dir, files);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes a release whose files are as built", () => {
    expect([...checkSums(dir, files).keys()].sort()).toEqual([...files].sort());
  });

  it("fails on a file altered after the build, naming it and both sums", () => {
    fs.appendFileSync(path.join(dir, files[1]), "!");
    expect(() => checkSums(dir, files)).toThrow(new RegExp(`${files[1]}: SHA-256 [0-9a-f]{64}, SHA256SUMS says [0-9a-f]{64}`));
  });

  it("fails on a missing file, and on an expected one SHA256SUMS does not list", () => {
    fs.rmSync(path.join(dir, files[0]));
    expect(() => checkSums(dir, files)).toThrow(`${files[0]}: missing`);
    expect(() => checkSums(dir, [...files, "plugin/a-darwin-arm64.tar.gz"])).toThrow("plugin/a-darwin-arm64.tar.gz: not in SHA256SUMS");
  });
});

describe("the release's version", () => {
  it("is package.json's in every generated file (Python's in PEP 440 form)", () => {
    expect(versions.checkVersions()).toBeUndefined();
  });

  it("says a pre-release the PEP 440 way, and refuses what PEP 440 cannot say", () => {
    expect(["0.2.0", "1.0.0-alpha.1", "1.0.0-beta.2", "1.0.0-rc.3"].map(versions.pep440)).toEqual([
      "0.2.0",
      "1.0.0a1",
      "1.0.0b2",
      "1.0.0rc3",
    ]);
    expect(() => versions.pep440("1.0.0-dev")).toThrow("PEP 440");
  });

  it("has its release notes in the CHANGELOG's section", () => {
    const version = versions.packageVersion();
    const section = versions.changelogSection(version);
    expect(changelog).toContain(`## [${version}] - ${section.date}`);
    expect(section.text.length).toBeGreaterThan(0);
    expect(section.text).not.toMatch(/^## /m);
    expect(() => versions.changelogSection("99.0.0")).toThrow("npm run release:cut -- 99.0.0");
  });
});

describe("the CHANGELOG's cut", () => {
  it("releases what is under Unreleased, under a new empty Unreleased, with the links the procedure wants", () => {
    const [major, minor] = versions.packageVersion().split(".").map(Number);
    const next = `${major}.${minor + 1}.0`;
    const withChange = changelog.replace("## [Unreleased]\n", "## [Unreleased]\n\n- Something new.\n");
    const cut = cutChangelog(withChange, next, "2099-12-01");
    const headings = [...cut.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 2)).toEqual(["[Unreleased]", `[${next}] - 2099-12-01`]);
    expect(versions.changelogSection(next, cut).text).toBe(
      withChange
        .split("## [Unreleased]")[1]
        .split(/^## \[\d/m)[0]
        .trim(),
    );
    const repo = "https://github.com/clouddb/pulumi-clouddb";
    expect(cut).toContain(`\n[Unreleased]: ${repo}/compare/v${next}...HEAD\n[${next}]: ${repo}/releases/tag/v${next}\n`);
    expect(() => cutChangelog(cut, `${major}.${minor + 2}.0`, "2099-12-02")).toThrow("Unreleased section is empty");
    expect(() => cutChangelog(withChange, versions.packageVersion(), "2099-12-02")).toThrow(
      `already has a section ${versions.packageVersion()}`,
    );
  });
});
