// @ts-check
/**
 * What the generated Java SDK (`sdk-native/java`) needs beyond what Pulumi's Java code
 * generator writes, so that Maven alone builds it: the generator writes a Gradle build whose
 * `genPulumiResources` task makes two resources at build time (`version.txt` and
 * `plugin.json`, which the SDK reads at its first resource: without them it fails with
 * "expected resource 'com/pulumi/clouddb/version.txt' on Classpath"). This writes them as
 * files, with the same content, and a `pom.xml` with the coordinates and dependencies of
 * that Gradle build, the Java SDK pinned to the release Maven Central serves
 * ({@link PULUMI_JAVA_SDK}; the Gradle build names 1.0.0, older than the host's protocol).
 */
"use strict";
const fs = require("fs");
const path = require("path");

/** `com.pulumi:pulumi`, the Java SDK the generated SDK compiles and runs against. */
const PULUMI_JAVA_SDK = "1.12.0";
/** The coordinates the generated Gradle build publishes under. */
const GROUP_ID = "com.pulumi";

/**
 * @typedef {object} Schema
 * @property {string} name
 * @property {string} version
 * @property {string} [description]
 * @property {string} [pluginDownloadURL]
 */

/**
 * The Maven coordinates of the Java SDK of `schema`.
 * @param {Schema} schema
 */
function javaCoordinates(schema) {
  return { groupId: GROUP_ID, artifactId: schema.name, version: schema.version };
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
  const { groupId, artifactId, version } = javaCoordinates(schema);
  const resources = path.join(dir, "src", "main", "resources", ...`${groupId}.${artifactId}`.split("."));
  fs.mkdirSync(resources, { recursive: true });
  fs.writeFileSync(path.join(resources, "version.txt"), version);
  /** @type {Record<string, unknown>} */
  const plugin = { resource: true, name: schema.name, version };
  if (schema.pluginDownloadURL !== undefined) plugin.server = schema.pluginDownloadURL;
  fs.writeFileSync(path.join(resources, "plugin.json"), `${JSON.stringify(plugin, null, 2)}\n`);
  const dep = (/** @type {string} */ g, /** @type {string} */ a, /** @type {string} */ v) =>
    `    <dependency>\n      <groupId>${g}</groupId>\n      <artifactId>${a}</artifactId>\n      <version>${v}</version>\n    </dependency>`;
  const pom = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by npm run generate:sdks (scripts/lib/java-sdk.js) beside the generated Gradle build: do not edit. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <description>${xml(schema.description ?? "")}</description>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
${dep("com.google.code.findbugs", "jsr305", "3.0.2")}
${dep("com.google.code.gson", "gson", "2.8.9")}
${dep("com.pulumi", "pulumi", PULUMI_JAVA_SDK)}
  </dependencies>
</project>
`;
  fs.writeFileSync(path.join(dir, "pom.xml"), pom);
}

module.exports = { javaCoordinates, writeJavaBuild, PULUMI_JAVA_SDK };
