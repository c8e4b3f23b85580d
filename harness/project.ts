/**
 * A Pulumi project as the CLI finds its program (rule PJ1 in README.md): the `Pulumi.yaml`
 * of a directory, its name, and where its `main` puts the program. pkg/engine/project.go
 * `getPwdMain`: no `main`, the project's directory runs `.`; `main` a directory (a
 * subfolder), that directory becomes the working directory (the language host's, and the
 * provider plugin's: rule P2) and runs `.`; `main` a file, its directory runs that file. The
 * Node.js language host requires the program, so `.` is the directory's package.json `main`
 * (else its index).
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";

/** Where the CLI runs a project's program. */
export interface PulumiProject {
  /** The project's name (`name` in Pulumi.yaml): the namespace of its program's own config keys. */
  readonly name: string;
  /** The folder holding Pulumi.yaml (and the stacks' `Pulumi.<stack>.yaml`). */
  readonly root: string;
  /** The working directory of the program and of the plugins it starts. */
  readonly pwd: string;
  /** The program's file, as the language host requires it. */
  readonly program: string;
}

/** The project whose Pulumi.yaml is in `root`. @throws Error as the CLI fails: no Pulumi.yaml, a `main` outside the project or missing. */
export function loadProject(root: string): PulumiProject {
  const manifest = parse(fs.readFileSync(path.join(root, "Pulumi.yaml"), "utf8")) as { name?: unknown; main?: unknown };
  if (typeof manifest.name !== "string") throw new Error(`${root}/Pulumi.yaml names no project`);
  let pwd = root;
  let main = ".";
  if (typeof manifest.main === "string" && manifest.main !== "") {
    if (path.isAbsolute(manifest.main)) throw new Error("project 'main' must be a relative path");
    const target = path.resolve(root, manifest.main);
    if (!target.startsWith(path.resolve(root))) throw new Error("project 'main' must be a subfolder");
    if (fs.statSync(target).isDirectory()) pwd = target;
    else [pwd, main] = [path.dirname(target), path.basename(target)];
  }
  return { name: manifest.name, root, pwd, program: require.resolve(path.resolve(pwd, main)) };
}
