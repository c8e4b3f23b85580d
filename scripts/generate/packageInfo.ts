/** What `package.json` says of the package, for the package schema (`schema.json`) and the SDK's index. */
import * as fs from "fs";
import * as path from "path";

/** One line on what the package gives a program: the SDK index's first line and the package schema's description. */
export const PACKAGE_SUMMARY = "Pulumi resources for CloudDB managed databases.";

/** The fields of `package.json` the package schema repeats. */
export interface PackageInfo {
  /** The npm package's name. */
  readonly name: string;
  readonly description: string;
  readonly keywords: readonly string[];
  readonly homepage: string;
  readonly license: string;
  /** The repository's web address (`git+https://...git` made plain). */
  readonly repository: string;
}

/** The package's `package.json` under `root`, as the package schema uses it. */
export function packageInfo(root: string): PackageInfo {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Omit<PackageInfo, "repository"> & {
    repository: { url: string };
  };
  return {
    name: pkg.name,
    description: pkg.description,
    keywords: pkg.keywords,
    homepage: pkg.homepage,
    license: pkg.license,
    repository: pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""),
  };
}
