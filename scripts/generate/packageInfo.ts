/** What `package.json` says of the package, for the package schema (`schema.json`) and the SDK's index. */
import * as fs from "fs";
import * as path from "path";

/** One line on what the package gives a program: the SDK index's first line and the package schema's description. */
export const PACKAGE_SUMMARY = "Pulumi resources for CloudDB managed databases.";

/**
 * The packages of the SDKs generated from the package schema (`sdk-native/<language>`,
 * `npm run generate:sdks`), served by the native plugin: names distinct from this npm
 * package's, which holds the dynamic providers.
 */
export const NATIVE_PACKAGES = {
  nodejs: "@clouddb/pulumi-clouddb",
  python: "pulumi_clouddb",
  /** The Go package's import path. */
  go: "github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb",
  /** The Go module (its go.mod): the same path, so a program's `replace` points at the folder. */
  goModule: "github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb",
} as const;

/** The fields of `package.json` the package schema repeats. */
export interface PackageInfo {
  /** The npm package's name. */
  readonly name: string;
  /** The package's version: the plugin's too. */
  readonly version: string;
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
    version: pkg.version,
    description: pkg.description,
    keywords: pkg.keywords,
    homepage: pkg.homepage,
    license: pkg.license,
    repository: pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""),
  };
}
