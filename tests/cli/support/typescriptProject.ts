/**
 * A TypeScript Pulumi project on disk, as Pulumi's TypeScript template lays it out, for the
 * CLI-tier tests: `Pulumi.yaml` (runtime `nodejs`, TypeScript), `package.json`, the
 * quickstart example's `tsconfig.json` and, when given, the program as `index.ts`.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../harness";
import { CliProject } from "../../../harness/cli/cliProject";
import type { CliTools } from "../../../harness/cli/tools";

/** Writes the project's files into `dir` (which must exist); `program` becomes `index.ts`. */
export function writeTypescriptProject(dir: string, name: string, program?: string): void {
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, main: "index.ts" }));
  fs.copyFileSync(path.join(REPO_ROOT, "examples", "quickstart", "tsconfig.json"), path.join(dir, "tsconfig.json"));
  if (program !== undefined) fs.writeFileSync(path.join(dir, "index.ts"), program);
}

/**
 * The project written into `dir` with its program, its stack created and configured for the
 * emulator (API URL, project, the key as a secret; `pollInterval` 20 ms).
 */
export async function typescriptProject(
  tools: CliTools,
  dir: string,
  name: string,
  program: string,
  emulator: RunningEmulator,
): Promise<CliProject> {
  writeTypescriptProject(dir, name, program);
  const project = await CliProject.create(dir, tools);
  await project.config(
    { "clouddb:apiUrl": emulator.baseUrl, "clouddb:projectId": emulator.projectId, "clouddb:pollInterval": "20ms" },
    { "clouddb:apiKey": emulator.pat },
  );
  return project;
}
