// @ts-check
/**
 * The Java SDK in the release: the version of that SDK the Java example asks for
 * (`examples/native-java/pom.xml`), which `release:cut` keeps at the release's.
 *
 * The coordinates are the schema's (`language.java.basePackage` the groupId, the package's
 * name the artifactId: scripts/lib/java-sdk.js), so they are written in one place.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { javaCoordinates } = require("../lib/java-sdk");
const { root } = require("./versions");

/** The Java example, whose pom names the SDK's version. */
const EXAMPLE_POM = "examples/native-java/pom.xml";

/** The Java SDK's Maven coordinates, from schema.json. */
function sdkCoordinates() {
  return javaCoordinates(JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")));
}

/**
 * The `<dependency>` of the SDK in a pom's text: a pattern whose group 2 is its version.
 * @param {{ groupId: string, artifactId: string }} c
 */
function dependencyPattern(c) {
  const q = (/** @type {string} */ s) => s.replace(/[.]/g, "\\.");
  return new RegExp(`(<groupId>${q(c.groupId)}</groupId>\\s*<artifactId>${q(c.artifactId)}</artifactId>\\s*<version>)([^<]*)(</version>)`);
}

/**
 * The version of the SDK the Java example asks for (undefined when its pom names no SDK).
 * @param {string} [pom] the pom's text (the example's by default)
 */
function exampleSdkVersion(pom = fs.readFileSync(path.join(root, EXAMPLE_POM), "utf8")) {
  return dependencyPattern(sdkCoordinates()).exec(pom)?.[2];
}

/**
 * Sets the version of the SDK the Java example asks for to `version` (release:cut).
 * @param {string} version
 */
function setExampleSdkVersion(version) {
  const file = path.join(root, EXAMPLE_POM);
  const pom = fs.readFileSync(file, "utf8");
  const pattern = dependencyPattern(sdkCoordinates());
  if (!pattern.test(pom)) throw new Error(`${EXAMPLE_POM} names no dependency on the Java SDK (${pattern.source})`);
  fs.writeFileSync(file, pom.replace(pattern, `$1${version}$3`));
}

module.exports = { EXAMPLE_POM, sdkCoordinates, exampleSdkVersion, setExampleSdkVersion };
