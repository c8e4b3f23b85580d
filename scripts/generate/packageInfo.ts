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
  /**
   * The Java SDK's `language.java` of the schema, as Pulumi's Java generator reads it. Its
   * `basePackage` is the Maven groupId as well (the generator's own rule for the Gradle build;
   * scripts/lib/java-sdk.js writes the `pom.xml` by the same rule), and the package is
   * `<basePackage>.clouddb`: `io.github.clouddb.pulumi:clouddb`, package
   * `io.github.clouddb.pulumi.clouddb`. Not `com.pulumi`, Pulumi's own namespace on Maven
   * Central: `io.github.clouddb` is the namespace Maven Central grants to whoever owns the
   * GitHub organisation `clouddb` (the repository's), with no domain to prove. The
   * dependencies are the pom's too: `com.pulumi:pulumi` is the Java SDK release Maven
   * Central serves that speaks the Java host's protocol (the generator's default, 1.0.0, is
   * older).
   */
  java: {
    basePackage: "io.github.clouddb.pulumi",
    buildFiles: "gradle",
    dependencies: {
      "com.google.code.findbugs:jsr305": "3.0.2",
      "com.google.code.gson:gson": "2.8.9",
      "com.pulumi:pulumi": "1.12.0",
    },
  },
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
