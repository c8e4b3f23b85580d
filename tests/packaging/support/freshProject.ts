/**
 * A fresh Pulumi TypeScript project as `pulumi new typescript` makes it (its package.json,
 * Pulumi.yaml and tsconfig.json), in a temp directory, with this package installed beside a
 * chosen `@pulumi/pulumi`: from the tarball `npm pack` makes, or from git, as
 * `npm install git+https://...` would (npm clones, installs the dev dependencies, runs
 * `prepare`, which builds, and packs what `files` names).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../../harness";

/**
 * Pulumi's TypeScript template tsconfig (pulumi/templates, typescript/tsconfig.json since
 * March 2026); before that it had `"module": "commonjs", "moduleResolution": "node"`.
 */
export const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "nodenext",
    moduleResolution: "nodenext",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** The template's devDependencies. */
export const TEMPLATE_DEV_DEPENDENCIES = { "@types/node": "^18", typescript: "^5.0.0" };

/** Runs npm with the output kept (for the failure message). */
function npm(args: string[], cwd: string): string {
  try {
    return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}: ${err.message}\n${err.stdout ?? ""}\n${err.stderr ?? ""}`, { cause: e });
  }
}

/**
 * A git repository of this working tree as a clone of it would be: the files git tracks or
 * would track (not those .gitignore leaves out, such as `dist/` and `node_modules/`), as
 * they are now, committed. So the test installs the code under test, not the last commit.
 */
function gitRepositoryOfWorkingTree(dir: string): string {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f !== "" && fs.existsSync(path.join(REPO_ROOT, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, f), path.join(dir, f));
  }
  const git = (...args: string[]): void => void execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=packaging test", "-c", "user.email=packaging@test.invalid", "commit", "-q", "-m", "working tree");
  return dir;
}

/** Where the package is installed from: the tarball `npm pack` makes, or a git repository. */
export type InstallSource = "tarball" | "git";

/** A fresh project; {@link FreshProject.remove} deletes it and what it was installed from. */
export class FreshProject {
  /** The project's directory. */
  readonly dir: string;
  /** The Pulumi project name. */
  readonly name = "clouddb-fresh";

  private constructor(private readonly tmp: string) {
    this.dir = path.join(tmp, "project");
  }

  /**
   * Lays out the template project with `program` as index.ts, and installs this package
   * (from `source`), `@pulumi/pulumi@<sdkVersion>` and the template's devDependencies from
   * the registry. A tarball is packed from this repository, already built; a git install
   * builds its own copy.
   */
  static create(program: string, sdkVersion: string, source: InstallSource = "tarball"): FreshProject {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-packaging-"));
    try {
      let spec: string;
      if (source === "tarball") {
        // Built already (npm run test:packaging builds first): skip `prepare`, and the build
        // `prepack` would run again, but pack the manifest as `prepack` and `postpack` do.
        const manifest = (step: string) => execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts", "pack-manifest.js"), step]);
        manifest("strip");
        try {
          npm(["pack", "--ignore-scripts", "--pack-destination", tmp], REPO_ROOT);
        } finally {
          manifest("restore");
        }
        spec = path.join(
          tmp,
          fs.readdirSync(tmp).find((f) => f.endsWith(".tgz"))!,
        );
      } else {
        spec = `git+file://${gitRepositoryOfWorkingTree(path.join(tmp, "repository"))}`;
      }
      const project = new FreshProject(tmp);
      fs.mkdirSync(project.dir);
      const write = (file: string, text: string): void => fs.writeFileSync(path.join(project.dir, file), text);
      write(
        "package.json",
        `${JSON.stringify({ name: project.name, main: "index.ts", devDependencies: {}, dependencies: {} }, null, 2)}\n`,
      );
      write("Pulumi.yaml", `name: ${project.name}\ndescription: A fresh project\nruntime: nodejs\n`);
      write("tsconfig.json", `${JSON.stringify(TEMPLATE_TSCONFIG, null, 4)}\n`);
      write("index.ts", program);
      npm(["install", "--no-audit", "--no-fund", spec, `@pulumi/pulumi@${sdkVersion}`], project.dir);
      npm(
        ["install", "--no-audit", "--no-fund", "--save-dev", ...Object.entries(TEMPLATE_DEV_DEPENDENCIES).map(([n, v]) => `${n}@${v}`)],
        project.dir,
      );
      return project;
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
  }

  /** Writes a file of the project. */
  write(file: string, text: string): void {
    fs.writeFileSync(path.join(this.dir, file), text);
  }

  /** Every `@pulumi/pulumi` installed in the project, relative paths. */
  pulumiCopies(): string[] {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const full = path.join(dir, entry.name);
        if (full.endsWith(path.join("node_modules", "@pulumi", "pulumi"))) found.push(path.relative(this.dir, full));
        walk(full);
      }
    };
    walk(path.join(this.dir, "node_modules"));
    return found;
  }

  /** Removes the project and what it was installed from. */
  remove(): void {
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}
