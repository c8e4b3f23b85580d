/**
 * Upgrades, in the style of pulumi/providertest's `PreviewProviderUpgrade`: the state a
 * stack of every resource kind has under each earlier release (a fixture recorded with
 * `record.ts`, beside the emulator state it describes) is loaded, and the code of today
 * previews, refreshes and updates it without any change, then destroys it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { SNAPSHOT_FILE_NAME } from "../../emulator/persistence/snapshot-file";
import { ClouddbClient } from "../../provider/client";
import { expectNoErrors, TestStack, type UpResult, type RefreshResult } from "../../harness";
import { writes } from "../../harness/cloud";
import type { Checkpoint } from "../../harness/checkpoint";
import { API_URL_PLACEHOLDER, FIXTURE_PROJECT_ID, fixtureDir } from "./fixtures";
import { UPGRADE_PROJECT, UPGRADE_STACK, upgradeProgram } from "./program";

/** Every recorded release, oldest first. */
const releases = fs.readdirSync(path.join(__dirname, "fixtures")).sort();

/** The steps that are not `same`, as `op name`. */
function changes(r: UpResult | RefreshResult): string[] {
  return r.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`);
}

describe.each(releases)("a stack recorded under release %s", (release) => {
  let work: string;
  let emulator: RunningEmulator;
  let controls: EmulatorControl;
  let api: ClouddbClient;
  let stack: TestStack;
  let checkpoint: Checkpoint;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-upgrade-"));
    fs.mkdirSync(path.join(work, "emulator"));
    fs.copyFileSync(path.join(fixtureDir(release), "emulator", SNAPSHOT_FILE_NAME), path.join(work, "emulator", SNAPSHOT_FILE_NAME));
    emulator = await startEmulator({ port: 0, clockScale: 0.02, dataDir: path.join(work, "emulator"), projectId: FIXTURE_PROJECT_ID });
    controls = new EmulatorControl(emulator.url, emulator.pat);
    api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
    checkpoint = JSON.parse(fs.readFileSync(path.join(fixtureDir(release), "checkpoint.json"), "utf8")) as Checkpoint;
    stack = await TestStack.create({
      project: UPGRADE_PROJECT,
      stack: UPGRADE_STACK,
      env: { CLOUDDB_JOURNAL_DIR: path.join(work, "journal") },
    });
    const here = (config: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v === API_URL_PLACEHOLDER ? emulator.baseUrl : v]));
    stack.importCheckpoint(checkpoint, here);
  });
  afterAll(async () => {
    await stack.close();
    await api.close();
    await emulator.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("previews with no change and sends no write", async () => {
    await controls.clearRequests();
    const r = expectNoErrors(await stack.preview(upgradeProgram));
    expect(changes(r)).toEqual([]);
    expect(r.steps.map((s) => s.name).sort()).toEqual(checkpoint.resources.map((x) => x.name).sort());
    expect(writes(await controls.requests())).toEqual([]);
  });

  it("refreshes with no change, and then previews with no change", async () => {
    const refreshed = expectNoErrors(await stack.refresh());
    expect(changes(refreshed)).toEqual([]);
    const r = expectNoErrors(await stack.preview(upgradeProgram));
    expect(changes(r)).toEqual([]);
  });

  it("updates with no change: nothing is sent", async () => {
    await controls.clearRequests();
    const r = expectNoErrors(await stack.up(upgradeProgram));
    expect(changes(r)).toEqual([]);
    expect(writes(await controls.requests())).toEqual([]);
  });

  it("destroys every resource it owns, and leaves the adopted service in the cloud", async () => {
    const adopted = checkpoint.resources.find((x) => x.name === "adopted")!.id;
    const r = expectNoErrors(await stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(checkpoint.resources.map((x) => `delete ${x.name}`).sort());
    expect(stack.resources()).toEqual([]);
    expect((await api.listServices()).map((s) => s.service_id)).toEqual([adopted]);
    expect(await api.listVpcs()).toEqual([]);
  });
});
