// @ts-check
/**
 * The programs a new user writes on the first day, one per path, each a VPC and a service
 * attached to it, exporting the service's host and password (a secret): the files of each
 * project, as the README's recipes make them. The TypeScript, Python and YAML programs use the
 * default provider (the stack's `clouddb:*` config); the Go program an explicit provider
 * `prov` (the project's `apiUrl`, `apiKey`, `projectId` config), as `pulumi import --provider`
 * needs.
 */
"use strict";
const fs = require("fs");
const path = require("path");

/** Pulumi's TypeScript template's tsconfig.json. */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/**
 * A TypeScript program importing `module` (`pulumi-clouddb`, the dynamic providers, or
 * `@clouddb/pulumi-clouddb`, the native SDK).
 * @param {string} name
 * @param {string} module
 */
function typescript(name, module) {
  return {
    "Pulumi.yaml": `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    "package.json": `${JSON.stringify({ name, private: true, main: "index.ts" }, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify(TSCONFIG, null, 2)}\n`,
    "index.ts": [
      `import * as clouddb from "${module}";`,
      "",
      'const net = new clouddb.Vpc("net", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });',
      'const db = new clouddb.Service("db", { cpuMillis: 500, memoryGbs: 2, vpcId: net.vpcId });',
      "",
      "export const host = db.host;",
      "export const password = db.password; // secret",
      "",
    ].join("\n"),
  };
}

const PYTHON = {
  "Pulumi.yaml": "name: firstday-python\nruntime: python\n",
  "__main__.py": [
    "import pulumi",
    "import pulumi_clouddb as clouddb",
    "",
    'net = clouddb.Vpc("net", cidr="10.0.0.0/16", region_code="us-east-1")',
    'db = clouddb.Service("db", cpu_millis=500, memory_gbs=2, vpc_id=net.vpc_id)',
    "",
    'pulumi.export("host", db.host)',
    'pulumi.export("password", db.password)  # secret',
    "",
  ].join("\n"),
};

const GO = {
  "Pulumi.yaml": "name: firstday-go\nruntime: go\n",
  "main.go": [
    "package main",
    "",
    "import (",
    '\t"github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    '\t\tcfg := config.New(ctx, "")',
    '\t\tprov, err := clouddb.NewProvider(ctx, "prov", &clouddb.ProviderArgs{',
    '\t\t\tApiUrl:    pulumi.String(cfg.Require("apiUrl")),',
    '\t\t\tApiKey:    cfg.RequireSecret("apiKey"),',
    '\t\t\tProjectId: pulumi.String(cfg.Require("projectId")),',
    "\t\t})",
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
    '\t\tnet, err := clouddb.NewVpc(ctx, "net", &clouddb.VpcArgs{',
    '\t\t\tCidr:       pulumi.String("10.0.0.0/16"),',
    "\t\t\tRegionCode: clouddb.RegionCode_Us_East_1,",
    "\t\t}, pulumi.Provider(prov))",
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
    '\t\tdb, err := clouddb.NewService(ctx, "db", &clouddb.ServiceArgs{',
    "\t\t\tCpuMillis: pulumi.Int(500),",
    "\t\t\tMemoryGbs: pulumi.Int(2),",
    "\t\t\tVpcId:     net.VpcId,",
    "\t\t}, pulumi.Provider(prov))",
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
    '\t\tctx.Export("host", db.Host)',
    '\t\tctx.Export("password", db.Password) // secret',
    "\t\treturn nil",
    "\t})",
    "}",
    "",
  ].join("\n"),
};

/**
 * The YAML program of release `version`: YAML has no SDK to name the plugin, so each resource
 * names its version and where the engine downloads it from (`pluginDownloadURL`), in its options.
 * @param {string} version
 * @param {string} pluginDownloadURL
 */
function yaml(version, pluginDownloadURL) {
  const options = ["    options:", `      version: ${version}`, `      pluginDownloadURL: ${pluginDownloadURL}`];
  return {
    "Pulumi.yaml": [
      "name: firstday-yaml",
      "runtime: yaml",
      "resources:",
      "  net:",
      "    type: clouddb:index:Vpc",
      "    properties:",
      "      cidr: 10.0.0.0/16",
      "      regionCode: us-east-1",
      ...options,
      "  db:",
      "    type: clouddb:index:Service",
      "    properties:",
      "      cpuMillis: 500",
      "      memoryGbs: 2",
      "      vpcId: ${net.vpcId}",
      ...options,
      "outputs:",
      "  host: ${db.host}",
      "  password: ${db.password}",
      "",
    ].join("\n"),
  };
}

/**
 * The Java program: the example `examples/native-java` as it is (its pom asks for the SDK of
 * this release, `release:cut` keeps it so), copied into the user's folder.
 * @returns {Record<string, string>}
 */
function java() {
  const example = path.join(__dirname, "..", "..", "examples", "native-java");
  const app = "src/main/java/clouddb/example/App.java";
  return Object.fromEntries(["Pulumi.yaml", "pom.xml", app].map((f) => [f, fs.readFileSync(path.join(example, f), "utf8")]));
}

/**
 * A user's `~/.m2/settings.xml` that adds `repository` to Maven Central (a profile active by
 * default): the rehearsal's stand-in of the release on Maven Central. A real user needs none.
 * @param {string} repository
 */
function mavenSettings(repository) {
  return [
    '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">',
    "  <profiles>",
    "    <profile>",
    "      <id>release-standin</id>",
    "      <activation><activeByDefault>true</activeByDefault></activation>",
    "      <repositories>",
    "        <repository>",
    "          <id>clouddb-release</id>",
    `          <url>${repository}</url>`,
    "          <snapshots><enabled>false</enabled></snapshots>",
    "        </repository>",
    "      </repositories>",
    "    </profile>",
    "  </profiles>",
    "</settings>",
    "",
  ].join("\n");
}

module.exports = { typescript, yaml, java, mavenSettings, PYTHON, GO };
