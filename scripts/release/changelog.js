// @ts-check
/**
 * The CHANGELOG's cut: `## [Unreleased]` becomes `## [X.Y.Z] - <date>` under a new empty
 * `## [Unreleased]`, and the links at the bottom follow (`[Unreleased]` compares from the new
 * tag; `[X.Y.Z]` is its release).
 */
"use strict";

const REPOSITORY = "https://github.com/clouddb/pulumi-clouddb";

/**
 * The CHANGELOG `text` with its Unreleased changes released as `version` on `date`; fails
 * when there is nothing under Unreleased, or the version is there already.
 * @param {string} text
 * @param {string} version
 * @param {string} date YYYY-MM-DD
 */
function cutChangelog(text, version, date) {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(version)) throw new Error(`${version} is not a version (X.Y.Z)`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${date} is not a date (YYYY-MM-DD)`);
  if (text.includes(`## [${version}]`)) throw new Error(`CHANGELOG.md already has a section ${version}`);
  const lines = text.split("\n");
  const start = lines.indexOf("## [Unreleased]");
  if (start < 0) throw new Error("CHANGELOG.md has no `## [Unreleased]` section");
  const end = lines.findIndex((l, i) => i > start && (/^## /.test(l) || /^\[[^\]]+\]: /.test(l)));
  const body = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join("\n")
    .trim();
  if (body === "") throw new Error("CHANGELOG.md's Unreleased section is empty: nothing to release");
  lines.splice(start, 1, "## [Unreleased]", "", `## [${version}] - ${date}`);
  const out = lines.join("\n");
  const unreleased = /^\[Unreleased\]: .*$/m;
  if (!unreleased.test(out)) throw new Error("CHANGELOG.md has no `[Unreleased]: ...` link");
  return out.replace(
    unreleased,
    `[Unreleased]: ${REPOSITORY}/compare/v${version}...HEAD\n[${version}]: ${REPOSITORY}/releases/tag/v${version}`,
  );
}

module.exports = { cutChangelog, REPOSITORY };
