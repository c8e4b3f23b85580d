// @ts-check
/**
 * The Java SDK in the release: built by Maven from `sdk-native/java` into a Maven repository
 * layout in the release folder (`maven/<group path>/<artifact>/<version>/`: the jar, the
 * sources jar, the javadoc jar, the pom, with Maven's checksums), published by copying that
 * layout into a folder (the rehearsal's stand-in, served over HTTP as a Maven repository) or
 * as a bundle to Maven Central (its Publisher API), and the version of that SDK the Java
 * example asks for (`examples/native-java/pom.xml`), which `release:cut` keeps at the release's.
 *
 * The coordinates are the schema's (`language.java.basePackage` the groupId, the package's
 * name the artifactId: scripts/lib/java-sdk.js), so they are written in one place.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { run, say } = require("../plugin/run");
const { filesUnder } = require("../lib/files");
const { javaCoordinates } = require("../lib/java-sdk");
const { root } = require("./versions");

/** The Java example, whose pom names the SDK's version. */
const EXAMPLE_POM = "examples/native-java/pom.xml";
/** Maven's plugins the build names on its command line (a pom without a `<build>` pins none). */
const SOURCE_PLUGIN = "org.apache.maven.plugins:maven-source-plugin:3.3.1";
const JAVADOC_PLUGIN = "org.apache.maven.plugins:maven-javadoc-plugin:3.11.2";
/** Maven Central's Publisher API, which takes a bundle of a repository layout, and says how its deployment goes. */
const CENTRAL_API = "https://central.sonatype.com/api/v1/publisher";
/** How long the publish step waits for Central to validate the bundle and start publishing it. */
const CENTRAL_WAIT_MS = 20 * 60 * 1000;

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

/**
 * The Java SDK built by Maven (`mvn deploy` to a file repository) into `<out>/maven`, from a
 * copy of `sdk-native/java`; its coordinates and files (relative to `out`).
 * @param {string} out
 */
function buildMavenRepository(out) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-release-java-"));
  const repo = path.join(out, "maven");
  try {
    fs.cpSync(path.join(root, "sdk-native", "java"), work, { recursive: true });
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    run(
      "mvn",
      [
        "-B",
        "-q",
        "--no-transfer-progress",
        `${SOURCE_PLUGIN}:jar`,
        `${JAVADOC_PLUGIN}:jar`,
        "deploy",
        "-Ddoclint=none",
        "-Dmaven.javadoc.failOnWarnings=false",
        `-DaltDeploymentRepository=release::default::file:${repo}`,
      ],
      { cwd: work },
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const c = sdkCoordinates();
  const files = filesUnder(repo).map((f) => path.relative(out, path.join(repo, f)));
  const dir = path.join("maven", ...c.groupId.split("."), c.artifactId, c.version);
  for (const suffix of [".jar", "-sources.jar", "-javadoc.jar", ".pom"]) {
    const f = path.join(dir, `${c.artifactId}-${c.version}${suffix}`);
    if (!files.includes(f)) throw new Error(`mvn deploy did not write ${f}`);
  }
  return { groupId: c.groupId, artifactId: c.artifactId, version: c.version, files };
}

/**
 * Publishes the release's Maven repository: into the folder `to.dir` (a stand-in serving it),
 * or to Maven Central (each file signed by `gpg` with the key the workflow imported, its
 * passphrase MAVEN_GPG_PASSPHRASE if it has one; the bundle uploaded with
 * MAVEN_CENTRAL_USERNAME and MAVEN_CENTRAL_PASSWORD, a Central Portal user token, and the
 * step waiting until Central has validated it and publishes it).
 * @param {string} dir the release folder
 * @param {{ files: string[] }} maven what release.json records of it
 * @param {{ dir: string } | { central: true }} to
 */
function publishMaven(dir, maven, to) {
  if ("dir" in to) {
    say(`publishing: the Java SDK into ${to.dir}`);
    for (const f of maven.files) {
      const target = path.join(to.dir, path.relative("maven", f));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(dir, f), target);
    }
    return;
  }
  const { MAVEN_CENTRAL_USERNAME: user, MAVEN_CENTRAL_PASSWORD: password } = process.env;
  if (!user || !password) throw new Error("MAVEN_CENTRAL_USERNAME and MAVEN_CENTRAL_PASSWORD are needed to publish to Maven Central");
  const passphrase = process.env.MAVEN_GPG_PASSPHRASE;
  const sign = (/** @type {string} */ file) =>
    passphrase
      ? run("gpg", ["--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase-fd", "0", "--armor", "--detach-sign", file], {
          input: passphrase,
        })
      : run("gpg", ["--batch", "--yes", "--armor", "--detach-sign", file]);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-central-"));
  try {
    // The component's files with their signatures; not Maven's metadata, which Central writes.
    for (const f of maven.files.filter((f) => !/maven-metadata/.test(f))) {
      const target = path.join(work, "bundle", path.relative("maven", f));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(dir, f), target);
      if (!/\.(md5|sha1)$/.test(f)) sign(target);
    }
    const zip = path.join(work, "bundle.zip");
    const top = fs.readdirSync(path.join(work, "bundle"));
    run("python3", ["-m", "zipfile", "-c", zip, ...top], { cwd: path.join(work, "bundle") });
    // The token in a file curl reads, never on a command line.
    const header = path.join(work, "authorization");
    fs.writeFileSync(header, `Authorization: Bearer ${Buffer.from(`${user}:${password}`).toString("base64")}\n`, { mode: 0o600 });
    const curl = (/** @type {string[]} */ ...args) => run("curl", ["--fail-with-body", "-sS", "-X", "POST", "-H", `@${header}`, ...args]);
    say(`publishing: the Java SDK's bundle to ${CENTRAL_API}/upload`);
    // Sent once: a second upload of a bundle Central took would be a second deployment of the
    // version, which it refuses. The status is asked again after a transient error.
    const id = curl("-F", `bundle=@${zip}`, `${CENTRAL_API}/upload?publishingType=AUTOMATIC`).trim();
    // Central validates the bundle before publishing it: the step fails on a bundle it refuses, not later and silently.
    const deadline = Date.now() + CENTRAL_WAIT_MS;
    for (;;) {
      const status = JSON.parse(curl("--retry", "5", "--retry-all-errors", `${CENTRAL_API}/status?id=${encodeURIComponent(id)}`));
      const state = String(status.deploymentState);
      if (state === "PUBLISHING" || state === "PUBLISHED") {
        say(`publishing: Maven Central validated deployment ${id} (${state})`);
        break;
      }
      if (state === "FAILED") throw new Error(`Maven Central refused deployment ${id}: ${JSON.stringify(status.errors ?? status)}`);
      if (Date.now() > deadline)
        throw new Error(
          `Maven Central's deployment ${id} is still ${state} after ${CENTRAL_WAIT_MS / 60000} min: see it at https://central.sonatype.com/publishing/deployments`,
        );
      run("sleep", ["15"]);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Where Maven put the Java SDK's jar in the local repository of the user whose home is `home`.
 * @param {string} home
 * @param {{ groupId: string, artifactId: string, version: string }} c
 */
function installedJavaSdk(home, c) {
  return path.join(home, ".m2", "repository", ...c.groupId.split("."), c.artifactId, c.version, `${c.artifactId}-${c.version}.jar`);
}

module.exports = {
  EXAMPLE_POM,
  installedJavaSdk,
  sdkCoordinates,
  exampleSdkVersion,
  setExampleSdkVersion,
  buildMavenRepository,
  publishMaven,
};
