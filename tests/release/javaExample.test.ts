/**
 * The Java example (`examples/native-java`) asks for the Java SDK of this release: its pom
 * names package.json's version, which `release:cut` sets (scripts/release/maven.js), so a user
 * copying the example gets the SDK the release published.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

interface Maven {
  EXAMPLE_POM: string;
  exampleSdkVersion(pom?: string): string | undefined;
  sdkCoordinates(): { groupId: string; artifactId: string };
}
const maven = require("../../scripts/release/maven") as Maven;
const versions = require("../../scripts/release/versions") as { packageVersion(): string };

describe("the Java example's SDK version", () => {
  it("is package.json's", () => {
    expect(maven.exampleSdkVersion()).toBe(versions.packageVersion());
  });

  it("is the SDK's dependency of the example's pom, with the schema's coordinates", () => {
    const pom = fs.readFileSync(path.join(REPO_ROOT, maven.EXAMPLE_POM), "utf8");
    const { groupId, artifactId } = maven.sdkCoordinates();
    expect(pom).toContain(`<groupId>${groupId}</groupId>\n      <artifactId>${artifactId}</artifactId>`);
    // Another dependency's version is not taken for the SDK's.
    const other = pom.replace(`<artifactId>${artifactId}</artifactId>`, "<artifactId>other</artifactId>");
    expect(maven.exampleSdkVersion(other)).toBeUndefined();
  });

  it("is set by release:cut's step to the version cut", () => {
    // setExampleSdkVersion on a copy of the repository's files it reads (schema.json, the example's pom).
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-java-example-"));
    try {
      for (const p of ["scripts", "schema.json", "package.json", "CHANGELOG.md", maven.EXAMPLE_POM]) {
        fs.cpSync(path.join(REPO_ROOT, p), path.join(copy, p), { recursive: true });
      }
      const inCopy = require(path.join(copy, "scripts/release/maven")) as Maven & { setExampleSdkVersion(v: string): void };
      inCopy.setExampleSdkVersion("9.8.7");
      const pom = fs.readFileSync(path.join(copy, maven.EXAMPLE_POM), "utf8");
      expect(inCopy.exampleSdkVersion(pom)).toBe("9.8.7");
      // Nothing else of the pom changed.
      const before = fs.readFileSync(path.join(REPO_ROOT, maven.EXAMPLE_POM), "utf8");
      expect(pom.replace("9.8.7", maven.exampleSdkVersion() ?? "")).toBe(before);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
