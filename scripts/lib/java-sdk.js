// @ts-check
/**
 * What the generated Java SDK (`sdk-native/java`) needs beyond what Pulumi's Java code
 * generator writes, so that Maven alone builds it: the generator writes a Gradle build whose
 * `genPulumiResources` task makes two resources at build time (`version.txt` and
 * `plugin.json`, which the SDK reads at its first resource: without them it fails with
 * "expected resource '<package path>/version.txt' on Classpath"). This writes them as
 * files, with the same content, and a `pom.xml` with the coordinates and dependencies of
 * that Gradle build: both from the schema's `language.java` (scripts/generate/packageInfo.ts),
 * the groupId its `basePackage` as the generator makes it, the artifactId the package's name;
 * with the name, URL, licence, developer and SCM Maven Central requires of a pom.
 */
"use strict";
const fs = require("fs");
const path = require("path");

/**
 * @typedef {object} Schema
 * @property {string} name
 * @property {string} version
 * @property {string} [description]
 * @property {string} [pluginDownloadURL]
 * @property {string} [publisher]
 * @property {string} [homepage]
 * @property {string} [repository]
 * @property {string} [license]
 * @property {{ java: { basePackage: string, dependencies: Record<string, string> } }} language
 */

/**
 * The Maven coordinates of the Java SDK of `schema`, and its Java package.
 * @param {Schema} schema
 */
function javaCoordinates(schema) {
  const groupId = schema.language.java.basePackage;
  return { groupId, artifactId: schema.name, version: schema.version, javaPackage: `${groupId}.${schema.name}` };
}

/** @param {string} text */
function xml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Writes `pom.xml` and the resources into the generated Java SDK at `dir`.
 * @param {string} dir
 * @param {Schema} schema
 */
function writeJavaBuild(dir, schema) {
  const { groupId, artifactId, version, javaPackage } = javaCoordinates(schema);
  const resources = path.join(dir, "src", "main", "resources", ...javaPackage.split("."));
  fs.mkdirSync(resources, { recursive: true });
  fs.writeFileSync(path.join(resources, "version.txt"), version);
  /** @type {Record<string, unknown>} */
  const plugin = { resource: true, name: schema.name, version };
  if (schema.pluginDownloadURL !== undefined) plugin.server = schema.pluginDownloadURL;
  fs.writeFileSync(path.join(resources, "plugin.json"), `${JSON.stringify(plugin, null, 2)}\n`);
  const deps = Object.entries(schema.language.java.dependencies)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([coordinates, v]) => {
      const [g, a] = coordinates.split(":");
      return `    <dependency>\n      <groupId>${g}</groupId>\n      <artifactId>${a}</artifactId>\n      <version>${v}</version>\n    </dependency>`;
    });
  const pom = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by npm run generate:sdks (scripts/lib/java-sdk.js) beside the generated Gradle build: do not edit. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>${xml(`${schema.publisher ?? schema.name} Pulumi SDK`)}</name>
  <description>${xml(schema.description ?? "")}</description>
  <url>${xml(schema.homepage ?? schema.repository ?? "")}</url>
  <licenses>
    <license>
      <name>${xml(schema.license ?? "")}</name>
    </license>
  </licenses>
  <developers>
    <developer>
      <name>${xml(schema.publisher ?? "")}</name>
    </developer>
  </developers>
  <scm>
    <url>${xml(schema.repository ?? "")}</url>
  </scm>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
${deps.join("\n")}
  </dependencies>
</project>
`;
  fs.writeFileSync(path.join(dir, "pom.xml"), pom);
}

module.exports = { javaCoordinates, writeJavaBuild };
