/**
 * The trees a bench run compares: this one, and checkouts of earlier commits it builds
 * itself (a git worktree, compiled with this repository's TypeScript, its node_modules a
 * view of this repository's with `pulumi-clouddb` pointing at the checkout). Programs of a
 * tree use its own SDK; its plugin processes start in its directory, so the trampolines
 * and closures its SDK serializes load its own provider.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { REPO_ROOT } from "../harness";

const run = promisify(execFile);

/** A resource class of an SDK, as a bench program constructs it. */
export type ResourceCtor = new (name: string, args: Record<string, unknown>, opts?: Record<string, unknown>) => Record<string, unknown>;

/** What a bench program uses of an SDK. */
export interface Sdk {
  Vpc: ResourceCtor;
  Service: ResourceCtor;
  ReadReplicaSet: ResourceCtor;
  VpcPeering: ResourceCtor;
}

/** A tree a bench run measures. */
export interface Tree {
  /** How the table names it: `this tree`, or the commit. */
  readonly label: string;
  /** Its directory: the repository, or a checkout. */
  readonly root: string;
  /** Its SDK, as a program imports `pulumi-clouddb`. */
  sdk(): Sdk;
  /** A compiled module of it, e.g. `provider/client/pacer` (undefined when the tree has none). */
  load<T>(module: string): T | undefined;
}

/** The tree built in `root`, named `label`. */
export function treeIn(label: string, root: string): Tree {
  return {
    label,
    root,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    sdk: () => require(path.join(root, "dist", "sdk")) as Sdk,
    load<T>(module: string): T | undefined {
      const file = path.join(root, "dist", `${module}.js`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return fs.existsSync(file) ? (require(file) as T) : undefined;
    },
  };
}

/** The first version (commit 0b128e4): the baseline every figure is set beside. */
export const FIRST_VERSION = "0b128e4";

/** The baseline a run sets this tree beside: `BENCH_BASE`, else {@link FIRST_VERSION}; `none` (where a caller allows it) leaves it out. */
export const baselineRef = (env: NodeJS.ProcessEnv = process.env): string => env.BENCH_BASE ?? FIRST_VERSION;

/** This repository (built by `npm run bench` before it runs). */
export const thisTree: Tree = treeIn("this tree", REPO_ROOT);

/** A checkout of `ref`, built, with its own node_modules view (the repository's, but pulumi-clouddb is that checkout). */
export async function baseTree(ref: string): Promise<Tree> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-base-"));
  await run("git", ["-C", REPO_ROOT, "worktree", "add", "--detach", dir, ref]);
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
    if (entry !== "pulumi-clouddb") fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry));
  }
  fs.symlinkSync(dir, path.join(modules, "pulumi-clouddb"), "dir");
  await run(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], {
    cwd: dir,
  });
  return treeIn(ref, dir);
}

/** Removes a checkout made by {@link baseTree}. Never throws. */
export async function removeTree(tree: Tree): Promise<void> {
  if (tree.root === REPO_ROOT) return;
  await run("git", ["-C", REPO_ROOT, "worktree", "remove", "--force", tree.root]).catch(() => undefined);
}
