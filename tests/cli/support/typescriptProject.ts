/**
 * A TypeScript Pulumi project on disk, as Pulumi's TypeScript template lays it out, for the
 * CLI-tier tests: `Pulumi.yaml` (runtime `nodejs`, TypeScript), `package.json`, the
 * quickstart example's `tsconfig.json` and, when given, the program as `index.ts`.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ClouddbClient } from "../../../provider/client";
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

/** What {@link useDeployedProject} gives a suite's tests: the emulator, a client on it, and the project. */
export interface DeployedProject {
  readonly emulator: RunningEmulator;
  readonly api: ClouddbClient;
  readonly project: CliProject;
}

/**
 * Registers, in the suite it is called in, a `beforeAll` that deploys `program` as the project
 * `name` ({@link typescriptProject} in a temp folder, `config` set, `pulumi up`) on an emulator
 * of its own (transitions at 0.02 of their time), and an `afterAll` that destroys it and
 * removes everything it made. Hooks the suite registers after it run after the `up`.
 */
export function useDeployedProject(
  tools: CliTools,
  name: string,
  program: string,
  config: Record<string, string> = {},
): () => DeployedProject {
  // Filled as each is made, so that whatever a failed beforeAll made is still closed.
  const made: { -readonly [K in keyof DeployedProject]?: DeployedProject[K] } & { work?: string } = {};
  beforeAll(async () => {
    made.emulator = await startEmulator({ port: 0, clockScale: 0.02 });
    made.api = new ClouddbClient({ apiUrl: made.emulator.baseUrl, apiKey: made.emulator.pat, projectId: made.emulator.projectId });
    made.work = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-${name}-`));
    made.project = await typescriptProject(tools, made.work, name, program, made.emulator);
    await made.project.config(config);
    await made.project.expect(["up", "--yes", "--skip-preview"]);
  });
  afterAll(async () => {
    await made.project?.expect(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await made.project?.remove();
    await made.api?.close();
    await made.emulator?.close();
    if (made.work !== undefined) fs.rmSync(made.work, { recursive: true, force: true });
  });
  return () => {
    const { emulator, api, project } = made;
    if (emulator === undefined || api === undefined || project === undefined) {
      throw new Error("useDeployedProject: the project is not deployed (the suite's beforeAll has not run, or failed)");
    }
    return { emulator, api, project };
  };
}
