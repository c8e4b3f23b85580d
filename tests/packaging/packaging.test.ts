/**
 * The package as a platform team gets it: `npm pack`, installed into a fresh Pulumi
 * TypeScript project (the template's package.json, Pulumi.yaml and tsconfig.json) beside
 * `@pulumi/pulumi` from the registry, then type checked under Pulumi's template tsconfig
 * (and the other module resolutions), deployed through Pulumi's real provider process
 * started in the project's directory, against the emulator, and its bins run from the
 * project's `node_modules/.bin`. Then the same package installed from git (npm builds it):
 * its entry points and bins.
 *
 * `@pulumi/pulumi` version: CLOUDDB_PACKAGING_SDK (`.ci/run` passes the newest), else this
 * repository's. This jest process maps `@pulumi/pulumi` to this repository's copy (see
 * jest.config.js beside this file), so that copy must be the same version.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { expectNoErrors, REPO_ROOT, TestStack, type Program } from "../../harness";
import { stackConfig } from "../../harness/cloud";
import { ClouddbClient } from "../../provider/client";
import { firstLine, runBin, startBinEmulator } from "./support/bins";
import { FreshProject } from "./support/freshProject";
import { brokenLinks, exportTargets, filesUnder, mapsWithoutSources } from "./support/tarball";
import { RESOLUTIONS, typecheck, type Resolution } from "./support/typecheck";

const repoSdk = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as {
    version: string;
  }
).version;
const SDK = process.env.CLOUDDB_PACKAGING_SDK || repoSdk;

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const net = new clouddb.Vpc("net", { name: "fresh-net", cidr: "10.40.0.0/16", regionCode: "us-east-1" });
  const db = new clouddb.Service("db", { name: config.get("dbName") ?? "fresh-db", vpcId: net.vpcId, connectionPooler: true });
  const reporting = new clouddb.ReadReplicaSet("reporting", {
    serviceId: db.serviceId, name: "reporting", nodes: 1, cpuMillis: 500, memoryGbs: 2,
  });
  const vpcs: clouddb.VpcResult[] = await clouddb.getVpcs();
  return { host: db.host, password: db.password, replicaHost: reporting.host, vpcsSeenAtStart: vpcs.length };
};
`;

const SUBPATHS = `import { ClouddbClient, NotFoundError } from "pulumi-clouddb/provider/client";
import { startEmulator } from "pulumi-clouddb/emulator";

export async function main(): Promise<void> {
  const emu = await startEmulator({ port: 0 });
  const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  try {
    await api.perform("getVpc", { vpc: "42" });
  } catch (e) {
    if (!NotFoundError.isInstance(e)) throw e;
  }
  await api.close();
  await emu.close();
}
`;

/** The \`\`\`ts blocks of the README installed in `dir`, in order. */
function readmeSnippets(dir: string): string[] {
  const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Fails at once when the fresh projects would get another SDK than the one the harness drives. */
function expectSameSdk(): void {
  if (repoSdk !== SDK) {
    throw new Error(
      `This repository has @pulumi/pulumi ${repoSdk}, the fresh project gets ${SDK}: the harness drives programs through ` +
        `this repository's copy, so install the same version first: npm install --no-save @pulumi/pulumi@${SDK}`,
    );
  }
}

/** The package's entry points, each resolved and loaded from the project at `dir`: `<resolved path> true` lines. */
function loadEntryPoints(dir: string, specifiers: string[]): string[] {
  const out = execFileSync(
    process.execPath,
    ["-e", `for (const s of ${JSON.stringify(specifiers)}) console.log(require.resolve(s), Object.keys(require(s)).length > 0)`],
    { cwd: dir, encoding: "utf8" },
  );
  return out.trim().split("\n");
}

const ENTRY_POINTS = ["pulumi-clouddb", "pulumi-clouddb/provider/vpc", "pulumi-clouddb/provider/client", "pulumi-clouddb/emulator"];

/** What `clouddb-emulator --help` and `clouddb-import --help` print, run from the project at `dir`. */
async function expectBinsHelp(dir: string): Promise<void> {
  const emulator = await runBin(dir, "clouddb-emulator", ["--help"]);
  expect(emulator).toMatchObject({ status: 0, stderr: "" });
  expect(emulator.stdout).toMatch(/^Usage: clouddb-emulator \[options\]\n/);
  expect(emulator.stdout).toContain("--clock-scale");
  const importer = await runBin(dir, "clouddb-import", ["--help"]);
  expect(importer).toMatchObject({ status: 0, stdout: "" });
  expect(importer.stderr).toMatch(/^usage: clouddb-import --out <file>/);
  // The native plugin, as `pulumi-resource-clouddb` on PATH: it serves, and prints its port.
  expect(await firstLine(dir, "pulumi-resource-clouddb")).toMatch(/^\d+$/);
}

describe(`pulumi-clouddb packed and installed beside @pulumi/pulumi ${SDK}`, () => {
  let project: FreshProject;
  let installed: string;
  beforeAll(() => {
    expectSameSdk();
    project = FreshProject.create(PROGRAM, SDK);
    installed = path.join(project.dir, "node_modules", "pulumi-clouddb");
  });
  afterAll(() => project?.remove());

  it("leaves one @pulumi/pulumi in the project: its own, the version it asked for", () => {
    expect(project.pulumiCopies()).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
    const sdk = JSON.parse(fs.readFileSync(path.join(project.dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"));
    expect(sdk.version).toBe(SDK);
  });

  it("ships compiled code, types, source maps carrying their sources, the README, the CHANGELOG, CONTRIBUTING and the LICENSE", () => {
    const files = filesUnder(installed);
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual([
      "CHANGELOG.md",
      "CONTRIBUTING.md",
      "LICENSE",
      "README.md",
      "package.json",
    ]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.filter((f) => /test/i.test(f))).toEqual([]);
    expect(fs.readFileSync(path.join(installed, "LICENSE"), "utf8")).toContain("Apache License");
    expect(mapsWithoutSources(installed, files)).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ license: "Apache-2.0", peerDependencies: { "@pulumi/pulumi": expect.any(String) } });
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.dependencies["@pulumi/pulumi"]).toBeUndefined();
    // A tarball holds the build: no `prepare` for npm to list among install scripts (scripts/pack-manifest.js).
    expect(Object.keys(pkg.scripts ?? {})).not.toContain("prepare");
  });

  it("resolves every export to a file that exists, with types, and loads each at run time", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
    const files = filesUnder(installed);
    const targets = exportTargets(pkg.exports, files);
    expect(targets.filter((t) => !fs.existsSync(path.join(installed, t.target)))).toEqual([]);
    const js = targets.filter((t) => t.target.endsWith(".js")).map((t) => t.subpath);
    for (const subpath of js.filter((s) => !s.includes("*"))) {
      expect(targets).toContainEqual({ subpath, target: expect.stringMatching(/\.d\.ts$/) });
    }
    expect(loadEntryPoints(project.dir, ENTRY_POINTS)).toEqual(
      ENTRY_POINTS.map(() => expect.stringMatching(new RegExp(`^${installed}/dist/.+\\.js true$`))),
    );
  });

  it("runs each bin from node_modules/.bin: clouddb-emulator --help, clouddb-import --help, pulumi-resource-clouddb to its port", async () => {
    await expectBinsHelp(project.dir);
  });

  describe.each(Object.keys(RESOLUTIONS) as Resolution[])("under the template tsconfig with module resolution %s", (resolution) => {
    it("type checks the program with no error, and no client or zod types in its type graph", () => {
      const r = typecheck(project.dir, ["index.ts"], resolution);
      expect(r.errors).toEqual([]);
      expect(r.files).toContain(path.join("node_modules", "pulumi-clouddb", "dist", "sdk", "index.d.ts"));
      expect(r.files.filter((f) => f.includes(`${path.sep}zod${path.sep}`) || f.includes(path.join("dist", "provider")))).toEqual([]);
    });

    it("resolves pulumi-clouddb/provider/client and pulumi-clouddb/emulator with their types", () => {
      project.write("subpaths.ts", SUBPATHS);
      const r = typecheck(project.dir, ["subpaths.ts"], resolution);
      if (resolution === "node") {
        // The client's and the emulator's types are zod's; zod's own declarations need esModuleInterop (or
        // skipLibCheck) under moduleResolution node, which the old template leaves off, as the README says.
        // Ours resolve: the errors are zod's alone, and both options clear them.
        expect(r.errors.filter((e) => !e.startsWith(path.join("node_modules", "zod")))).toEqual([]);
        expect(typecheck(project.dir, ["subpaths.ts"], resolution, { skipLibCheck: true }).errors).toEqual([]);
        expect(typecheck(project.dir, ["subpaths.ts"], resolution, { esModuleInterop: true }).errors).toEqual([]);
      } else {
        expect(r.errors).toEqual([]);
      }
    });
  });

  it("ships the README for users, whose links all lead somewhere from node_modules, and the CHANGELOG of this version", () => {
    const readme = fs.readFileSync(path.join(installed, "README.md"), "utf8");
    expect(readme).toMatch(/^## Install$/m);
    expect(readme).toMatch(/^## Configuration$/m);
    expect(readme).toMatch(/^## Resources$/m);
    expect(readme).not.toMatch(/^## (Set-up|Tests|Performance|Releasing)/m);
    expect(brokenLinks(installed, "README.md")).toEqual([]);
    expect(brokenLinks(installed, "CHANGELOG.md")).toEqual([]);
    const version = (JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as { version: string }).version;
    expect(fs.readFileSync(path.join(installed, "CHANGELOG.md"), "utf8")).toContain(`## [${version}] - `);
  });

  it("compiles the README's TypeScript examples as written", () => {
    const snippets = readmeSnippets(installed);
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const files = snippets.map((text, i) => {
      project.write(`readme-${i + 1}.ts`, text);
      return `readme-${i + 1}.ts`;
    });
    expect(typecheck(project.dir, files, "nodenext").errors).toEqual([]);
  });

  describe("deployed through Pulumi's provider process started in the project's directory", () => {
    let emulator: RunningEmulator;
    let stack: TestStack;
    let program: Program;
    beforeAll(async () => {
      execFileSync(process.execPath, [path.join(project.dir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], {
        cwd: project.dir,
      });
      program = require(path.join(project.dir, "bin", "index.js")) as Program;
      emulator = await startEmulator({ port: 0, clockScale: 0.02 });
      // The real plugin process, as Pulumi starts it in the project's directory (not the harness's in-process host).
      stack = await TestStack.create({
        host: "plugin",
        cwd: project.dir,
        project: project.name,
        stack: "dev",
        config: stackConfig(emulator),
      });
    });
    afterAll(async () => {
      await stack?.close();
      await emulator?.close();
    });

    it("loads the providers from the project's node_modules", () => {
      const resolved = execFileSync(process.execPath, ["-p", "require.resolve('pulumi-clouddb/provider/service')"], {
        cwd: project.dir,
        encoding: "utf8",
      });
      expect(resolved.trim()).toBe(path.join(installed, "dist", "provider", "service.js"));
    });

    it("creates the VPC, the service and the replica set, the password a secret", async () => {
      const r = expectNoErrors(await stack.up(program));
      expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["create net", "create db", "create reporting"]);
      expect(String(r.outputs.host)).toMatch(/\.clouddb\.local$/);
      expect(r.secretOutputNames).toContain("password");
      expect(stack.plaintextState()).not.toContain(String(r.outputs.password));
      expect(stack.pluginStderr()).toBe("");
    });

    it("clouddb-import writes what the stack deployed, with the providers the SDK registered, and a program that type checks", async () => {
      const api = { CLOUDDB_API_URL: emulator.baseUrl, CLOUDDB_API_KEY: emulator.pat, CLOUDDB_PROJECT_ID: emulator.projectId };
      const r = await runBin(project.dir, "clouddb-import", ["--out", "import.json", "--program", "imported.ts"], api);
      expect(r.stderr).toBe(
        "clouddb-import: wrote 3 resources to import.json; next: pulumi import --file import.json --generate-code=false\n",
      );
      expect(r.status).toBe(0);
      const doc = JSON.parse(fs.readFileSync(path.join(project.dir, "import.json"), "utf8")) as {
        resources: { type: string; id: string; inputs: Record<string, unknown> }[];
      };
      const deployed = stack.resources();
      expect(doc.resources.map((d) => `${d.type} ${d.id}`).sort()).toEqual(deployed.map((d) => `${d.type} ${d.id}`).sort());
      for (const d of doc.resources) {
        expect(d.inputs.__provider).toBe(deployed.find((x) => x.id === d.id)!.inputs.__provider);
      }
      expect(typecheck(project.dir, ["imported.ts"], "nodenext").errors).toEqual([]);
    });

    it("changes nothing on a second up, previews a rename as a replacement, and destroys everything", async () => {
      const again = expectNoErrors(await stack.up(program));
      expect(again.steps.every((s) => s.op === "same")).toBe(true);
      stack.setConfig(`${project.name}:dbName`, "fresh-db-2");
      const preview = expectNoErrors(await stack.preview(program));
      expect(preview.steps.filter((s) => s.name === "db").map((s) => s.op)).toEqual(["replace", "delete-replaced"]);
      const gone = expectNoErrors(await stack.destroy());
      expect(gone.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete reporting", "delete db", "delete net"]);
    });
  });
});

describe(`pulumi-clouddb installed from git beside @pulumi/pulumi ${SDK}`, () => {
  let project: FreshProject;
  let installed: string;
  beforeAll(() => {
    expectSameSdk();
    project = FreshProject.create(PROGRAM, SDK, "git");
    installed = path.join(project.dir, "node_modules", "pulumi-clouddb");
  });
  afterAll(() => project?.remove());

  it("is built on install and holds what the tarball holds", () => {
    const files = filesUnder(installed);
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual([
      "CHANGELOG.md",
      "CONTRIBUTING.md",
      "LICENSE",
      "README.md",
      "package.json",
    ]);
    expect(files).toContain("dist/sdk/index.js");
    expect(files).toContain("dist/provider/import/cli.js");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("resolves and loads every entry point", () => {
    expect(loadEntryPoints(project.dir, ENTRY_POINTS)).toEqual(
      ENTRY_POINTS.map(() => expect.stringMatching(new RegExp(`^${installed}/dist/.+\\.js true$`))),
    );
  });

  it("runs each bin: an emulator from clouddb-emulator, and clouddb-import against it", async () => {
    await expectBinsHelp(project.dir);
    const emulator = await startBinEmulator(project.dir);
    const api = new ClouddbClient({
      apiUrl: emulator.env.CLOUDDB_API_URL,
      apiKey: emulator.env.CLOUDDB_API_KEY,
      projectId: emulator.env.CLOUDDB_PROJECT_ID,
    });
    try {
      const vpc = await api.perform("createVpc", { body: { name: "from-git", cidr: "10.50.0.0/16", region_code: "us-east-1" } });
      const r = await runBin(project.dir, "clouddb-import", ["--out", "import.json", "--program", "imported.ts"], emulator.env);
      expect(r.stderr).toBe(
        "clouddb-import: wrote 1 resource to import.json; next: pulumi import --file import.json --generate-code=false\n",
      );
      expect(r.status).toBe(0);
      const doc = JSON.parse(fs.readFileSync(path.join(project.dir, "import.json"), "utf8")) as { resources: { id: string }[] };
      expect(doc.resources.map((d) => d.id)).toEqual([vpc.id]);
    } finally {
      await api.close();
      await emulator.stop();
    }
  }, 120_000);
});
