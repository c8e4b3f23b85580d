/**
 * A transient error needs no person, on the native plugin under the real CLI (issue 40, item
 * 4): a Pulumi YAML program of twenty services, the API limiting the key to 2 requests a
 * second and a gateway answering three of their POSTs `503 UNAVAILABLE` before the API acted.
 * One `pulumi up` makes the twenty (each lost create sent again once a list read
 * `clouddb:listLag` after its 503 shows nothing it made), and an `up` whose plugin dies while
 * it waits after such a 503 is followed by one that creates the service, with no journal file
 * removed by hand.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { ClouddbClient } from "../../../provider/client";
import { until } from "../../../harness";
import { cliWorkspace, CliStack, describeWithCli, emulator, journalEntriesIn, killPlugins, run } from "./support";

/** A YAML program of `count` services on the stack's default provider: half named by the program, half by autonaming. */
function program(count: number): string {
  const resources = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `  own-${i}:\n    type: clouddb:index:Service\n`
      : `  named-${i}:\n    type: clouddb:index:Service\n    properties:\n      name: tenant-${i}\n`,
  );
  return `name: transient-creates\nruntime: yaml\nresources:\n${resources.join("")}`;
}

/** A stack of that program in a workspace of its own, its default provider pointed at `emu`. */
async function stackOf(emu: RunningEmulator, count: number, listLag: string): Promise<CliStack> {
  const ws = await cliWorkspace("transient-creates");
  const dir = path.join(ws.work, "program");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(count));
  const stack = new CliStack(dir, ws.env);
  await stack.pulumi("stack", "init", "dev");
  await stack.pulumi("config", "set", "clouddb:apiUrl", emu.baseUrl);
  await stack.pulumi("config", "set", "--secret", "clouddb:apiKey", emu.pat);
  await stack.pulumi("config", "set", "clouddb:projectId", emu.projectId);
  await stack.pulumi("config", "set", "clouddb:pollInterval", "20ms");
  await stack.pulumi("config", "set", "clouddb:pollMaxInterval", "200ms");
  await stack.pulumi("config", "set", "clouddb:listLag", listLag);
  return stack;
}

describeWithCli("creates whose POST a gateway answered 503, on the native plugin under the real CLI", () => {
  let emu: RunningEmulator;
  let control: EmulatorControl;
  let api: ClouddbClient;
  const stacks: CliStack[] = [];
  beforeAll(async () => {
    emu = await emulator();
    control = new EmulatorControl(emu.url, emu.pat);
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  });
  afterEach(async () => {
    await control.reset();
  });
  afterAll(async () => {
    for (const s of stacks) s.close();
    await api.close();
    await emu?.close();
  });

  const posts = async () => (await control.requests()).filter((r) => r.method === "POST" && /\/services$/.test(r.path));

  it("twenty services, 2 requests a second, three POSTs answered 503: one up makes the twenty, no second of any", async () => {
    const stack = await stackOf(emu, 20, "2s");
    stacks.push(stack);
    await control.rateLimit(2);
    await control.fault({ method: "POST", path: "/services$", status: 503, count: 3 });
    await stack.pulumi("up", "--yes", "--skip-preview");
    const made = (await api.perform("listServices")).items;
    expect(made).toHaveLength(20);
    expect(new Set(made.map((s) => s.name)).size).toBe(20);
    const sent = await posts();
    expect(sent.filter((p) => p.status === 503)).toHaveLength(3);
    expect(sent.filter((p) => p.status === 202)).toHaveLength(20);
    const state = await stack.exported();
    expect(
      state.resources
        .filter((r) => r.type === "clouddb:index:Service")
        .map((r) => r.id)
        .sort(),
    ).toEqual(made.map((s) => s.service_id).sort());
    expect(journalEntriesIn(stack.env.CLOUDDB_JOURNAL_DIR!)).toEqual([]);
    await stack.pulumi("destroy", "--yes", "--skip-preview");
  });

  it("an up whose plugin dies while it waits after the 503: the next up creates the service, no file removed by hand", async () => {
    const stack = await stackOf(emu, 1, "8s");
    stacks.push(stack);
    await control.fault({ method: "POST", path: "/services$", status: 503, count: 1 });
    const journal = stack.env.CLOUDDB_JOURNAL_DIR!;
    const running = run("pulumi", ["up", "--yes", "--skip-preview"], { cwd: stack.dir, env: stack.env });
    // The journal records when the lost answer's request ended before the plugin waits for the list's bound.
    await until(
      "the entry of the lost answer",
      async () =>
        journalEntriesIn(journal).some((f) => fs.readFileSync(path.join(journal, f), "utf8").includes('"endedAt"')) ? true : undefined,
      60_000,
    );
    killPlugins(stack.env.PULUMI_HOME!);
    const interrupted = await running;
    expect(interrupted.code).not.toBe(0);
    expect((await api.perform("listServices")).items).toEqual([]);
    // No person: the next up, as it is.
    const again = await stack.pulumiMayFail("up", "--yes", "--skip-preview");
    expect(again.code).toBe(0);
    const made = (await api.perform("listServices")).items;
    expect(made).toHaveLength(1);
    expect((await posts()).map((p) => p.status)).toEqual([503, 202]);
    expect(`${again.stdout}${again.stderr}`).toMatch(/a list read 8s \(clouddb:listLag\) after its request ended shows no service it made/);
    await stack.pulumi("refresh", "--yes", "--clear-pending-creates");
    await stack.pulumi("destroy", "--yes", "--skip-preview");
    expect((await api.perform("listServices")).items).toEqual([]);
  });
});
