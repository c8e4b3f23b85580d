/** A stack loaded from a release's fixture (its recorded state, `pulumi stack import`ed), against an emulator holding what it describes. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { SNAPSHOT_FILE_NAME } from "../../emulator/persistence/snapshot-file";
import { ClouddbClient } from "../../provider/client";
import { TestStack } from "../../harness";
import type { Checkpoint } from "../../harness/checkpoint";
import { API_URL_PLACEHOLDER, FIXTURE_PROJECT_ID, fixtureDir } from "./fixtures";
import { UPGRADE_PROJECT, UPGRADE_STACK } from "./program";

/** A stack loaded from a release's fixture, its emulator, and a client on it. */
export interface Loaded {
  stack: TestStack;
  emulator: RunningEmulator;
  controls: EmulatorControl;
  api: ClouddbClient;
  checkpoint: Checkpoint;
  /**
   * The same fixture loaded again into a new stack against the same emulator, the stack's
   * commands run with `env` added to their environment (as after `export NAME=value` in the
   * user's shell); it becomes {@link stack}. For a command that stopped with nothing changed.
   */
  again(env: Record<string, string>): Promise<TestStack>;
  close(): Promise<void>;
}

/** Loads `release`'s fixture (after `edit` changed its checkpoint) into a new stack against a new emulator. */
export async function load(release: string, edit: (c: Checkpoint) => void = () => undefined): Promise<Loaded> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-upgrade-"));
  fs.mkdirSync(path.join(work, "emulator"));
  fs.copyFileSync(path.join(fixtureDir(release), "emulator", SNAPSHOT_FILE_NAME), path.join(work, "emulator", SNAPSHOT_FILE_NAME));
  const emulator = await startEmulator({ port: 0, clockScale: 0.02, dataDir: path.join(work, "emulator"), projectId: FIXTURE_PROJECT_ID });
  const controls = new EmulatorControl(emulator.url, emulator.pat);
  const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
  const checkpoint = JSON.parse(fs.readFileSync(path.join(fixtureDir(release), "checkpoint.json"), "utf8")) as Checkpoint;
  edit(checkpoint);
  const here = (config: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v === API_URL_PLACEHOLDER ? emulator.baseUrl : v]));
  const loaded = async (env: Record<string, string>): Promise<TestStack> => {
    const stack = await TestStack.create({
      host: "plugin",
      project: UPGRADE_PROJECT,
      stack: UPGRADE_STACK,
      env: { CLOUDDB_JOURNAL_DIR: path.join(work, "journal"), ...env },
    });
    stack.importCheckpoint(checkpoint, here);
    return stack;
  };
  const stacks = [await loaded({})];
  return {
    get stack() {
      return stacks[stacks.length - 1];
    },
    emulator,
    controls,
    api,
    checkpoint,
    async again(env) {
      stacks.push(await loaded(env));
      return stacks[stacks.length - 1];
    },
    async close() {
      for (const s of stacks) await s.close();
      await api.close();
      await emulator.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
