/**
 * Records the upgrade fixture of the release in package.json (or the version given):
 * deploys `program.ts` with the code as built now against an emulator with a data
 * directory, then writes the stack's checkpoint and the emulator's state under
 * `fixtures/<version>/`. Run once per release, before the next release changes anything:
 *
 *   npm run build && npx ts-node --transpile-only tests/upgrade/record.ts [version]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../emulator";
import { SNAPSHOT_FILE_NAME } from "../../emulator/persistence/snapshot-file";
import { ClouddbClient } from "../../provider/client";
import { expectNoErrors, TestStack } from "../../harness";
import { stackConfig } from "../../harness/cloud";
import { API_URL_PLACEHOLDER, FIXTURE_PROJECT_ID, FIXTURE_SECRET_KEYS, fixtureDir } from "./fixtures";
import { UPGRADE_PROJECT, UPGRADE_STACK, upgradeProgram } from "./program";

async function main(): Promise<void> {
  const version =
    process.argv[2] ?? (JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { version: string }).version;
  const out = fixtureDir(version);
  if (fs.existsSync(out)) throw new Error(`${out} exists: a release's fixture is recorded once`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-upgrade-record-"));
  const emulator = await startEmulator({ port: 0, clockScale: 0, dataDir: path.join(work, "emulator"), projectId: FIXTURE_PROJECT_ID });
  const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
  const stack = await TestStack.create({
    host: "plugin",
    project: UPGRADE_PROJECT,
    stack: UPGRADE_STACK,
    config: { ...stackConfig(emulator) },
    secretKeys: [...FIXTURE_SECRET_KEYS],
    env: { CLOUDDB_JOURNAL_DIR: path.join(work, "journal") },
  });
  try {
    const legacy = await api.perform("createService", { body: { name: "upgrade-legacy" } });
    await api.waitForService(legacy.service_id, { until: ["READY"], timeoutMs: 30_000 });
    stack.setConfig(`${UPGRADE_PROJECT}:adoptedId`, legacy.service_id);
    stack.setConfig(`${UPGRADE_PROJECT}:dbPassword`, "upgrade-fixture-password-1", { secret: true });
    expectNoErrors(await stack.up(upgradeProgram));
    const again = expectNoErrors(await stack.up(upgradeProgram));
    const changed = again.steps.filter((s) => s.op !== "same");
    if (changed.length > 0) throw new Error(`a second up was not all same: ${JSON.stringify(changed)}`);
    const checkpoint = JSON.stringify(stack.exportCheckpoint(), null, 2).split(emulator.baseUrl).join(API_URL_PLACEHOLDER);
    fs.mkdirSync(path.join(out, "emulator"), { recursive: true });
    fs.writeFileSync(path.join(out, "checkpoint.json"), `${checkpoint}\n`);
    await stack.close();
    await api.close();
    await emulator.close();
    fs.copyFileSync(path.join(work, "emulator", SNAPSHOT_FILE_NAME), path.join(out, "emulator", SNAPSHOT_FILE_NAME));
    console.log(`recorded ${out}`);
  } finally {
    await stack.close().catch(() => undefined);
    await api.close().catch(() => undefined);
    await emulator.close().catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
