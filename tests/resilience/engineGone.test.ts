/**
 * A provider whose engine is gone ends its waits and exits, leaving the journal as a kill
 * would: the native plugin as the engine starts it (its standard input a pipe whose writing
 * end only the engine holds), the engine killed mid-create. The dynamic-provider host is
 * shown the same under the real CLI (tests/cli/processes.test.ts), and the native plugin
 * there too (tests/native/cli/processes.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { until } from "../../harness";
import { journalEntries } from "../../harness/cloud";
import { journalIds } from "../../harness/journalIds";
import { alive } from "../../harness/processes";
import { ClouddbClient } from "../../provider/client";
import { inDynamicProviderHost, watchEngine } from "../../provider/framework/engineWatch";
import { NativePlugin, urnOf } from "../native/support";

describe("a provider whose engine is gone", () => {
  let emu: RunningEmulator;
  let api: ClouddbClient;
  let journal: string;
  beforeAll(async () => {
    // A service takes about 20 s to be ready: a plugin that exits sooner stopped waiting.
    emu = await startEmulator({ port: 0, clockScale: 2 });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-engine-gone-"));
  });
  afterAll(async () => {
    await api.close();
    await emu.close();
    fs.rmSync(journal, { recursive: true, force: true });
  });

  it("the native plugin ends its create's wait and exits within seconds; the journal keeps the create, with the id the API gave", async () => {
    const plugin = await NativePlugin.start({ CLOUDDB_JOURNAL_DIR: journal }, { enginePipe: true });
    try {
      await plugin.configure({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms" });
      const urn = urnOf("Service", "orphaned");
      const { inputs } = await plugin.check(urn, { name: "orphaned" });
      const creating = plugin.create(urn, inputs).catch((e: unknown) => e);
      const made = await until(
        "the API to have the service",
        async () => (await api.perform("listServices")).items.find((s) => s.name === "orphaned"),
        30_000,
      );
      // The plugin waits, polling, once its journal has the id the API gave (written before the wait).
      await until("the journal to have the service's id", async () => (journalIds(journal).includes(made.service_id) ? true : undefined));
      const pid = plugin.pid;
      expect(alive(pid)).toBe(true); // while the engine lives, it serves
      plugin.killEngine();
      await until("the plugin to exit", async () => (alive(pid) ? undefined : true), 10_000);
      expect((await api.perform("getService", { service: made.service_id })).status).not.toBe("READY");
      expect(await creating).toBeInstanceOf(Error); // the engine's call never got an answer
      const entries = journalEntries(journal).map((f) => JSON.parse(fs.readFileSync(path.join(journal, f), "utf8")) as { id?: string });
      expect(entries.map((e) => e.id)).toEqual([made.service_id]);
    } finally {
      await plugin.close();
    }
  });

  it("is told only by a pipe: standard input that is a terminal, a file or /dev/null is not watched", () => {
    const devNull = fs.openSync("/dev/null", "r");
    try {
      expect(watchEngine(() => undefined, process.stdin, devNull)).toBe(false);
    } finally {
      fs.closeSync(devNull);
    }
  });

  it("the dynamic providers watch only in Pulumi's dynamic-provider host, never in a program or a test", () => {
    expect(inDynamicProviderHost("/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js")).toBe(true);
    expect(inDynamicProviderHost("/p/node_modules/@pulumi/pulumi/cmd/run/index.js")).toBe(false);
    expect(inDynamicProviderHost(undefined)).toBe(false);
    expect(inDynamicProviderHost()).toBe(false); // this test process
  });
});
