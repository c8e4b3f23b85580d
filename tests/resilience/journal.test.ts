/**
 * The journal keeps every intent until the resource is in state (case 4): an entry whose
 * process id was used again by another process, an entry older than a day that names the
 * exact id, a takeover interrupted a second time, an entry that is `null` or torn; a
 * directory that cannot be written (the user is told once, and creates still never make a
 * second resource), and a directory others could reach (tightened, or refused with a
 * message). Each interrupted create is the plugin killed while its service is being made.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed, TestStack, until } from "../../harness";
import { journalEntries, stackConfig, startCloud, type Cloud } from "../../harness/cloud";
import { legacyEntryFile } from "../../provider/framework/journalStore";

const TAKEN_OVER = "was made by an earlier create that did not finish";

describe("an interrupted create whose journal entry", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // A create takes 3.5 s (QUEUED 1 s, CONFIGURING 2.5 s): time to kill the plugin while it waits.
    cloud = await startCloud({ clockScale: 0.5, host: "plugin" });
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
    await cloud.controls.reset();
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });
  afterAll(async () => {
    await cloud.close();
  });

  const program = (name: string, adoptId?: string) => () => void new clouddb.Service("db", { name, ...(adoptId ? { adoptId } : {}) });

  /** The services of `name` in the API. */
  async function called(name: string): Promise<string[]> {
    return (await cloud.api.perform("listServices")).items.filter((s) => s.name === name).map((s) => s.service_id);
  }

  /** Runs `up`, kills the plugin once the API made the service and answered (the entry names its id); returns the entry's file. */
  async function killedAfterAnswer(name: string): Promise<{ id: string; file: string }> {
    const running = cloud.stack.up(program(name));
    const made = await until("the service", async () => (await cloud.api.perform("listServices")).items.find((s) => s.name === name));
    const file = await until("the entry with the id", async () => {
      const entries = journalEntries(cloud.journalDir);
      const full = entries.map((f) => path.join(cloud.journalDir, f));
      return full.find((f) => fs.readFileSync(f, "utf8").includes(made.service_id));
    });
    await cloud.stack.plugin.kill();
    expect((await running).errors.length).toBeGreaterThan(0);
    return { id: made.service_id, file };
  }

  /** Rewrites fields of the entry in `file`. */
  function edit(file: string, change: Record<string, unknown>): void {
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, "utf8")), ...change }));
  }

  it("names a process id now used by another process: the next up takes the service over", async () => {
    const { id, file } = await killedAfterAnswer("jn-pid");
    const other: ChildProcess = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      edit(file, { pid: other.pid }); // a container restarted with its journal directory: the id is someone else's now
      expectNoErrors(await cloud.stack.up(program("jn-pid")));
      expect(await called("jn-pid")).toEqual([id]);
      expect(cloud.stack.resource("db").id).toBe(id);
      expect(journalEntries(cloud.journalDir)).toEqual([]);
    } finally {
      other.kill();
    }
  });

  it("is older than a day and names the exact id: the next up takes the service over", async () => {
    const { id, file } = await killedAfterAnswer("jn-old");
    edit(file, { startedAt: Date.now() - 2 * 24 * 3_600_000 });
    expectNoErrors(await cloud.stack.up(program("jn-old")));
    expect(await called("jn-old")).toEqual([id]);
    expect(cloud.stack.resource("db").id).toBe(id);
  });

  it("belongs to a takeover interrupted again: the third up still takes the same service over", async () => {
    const { id } = await killedAfterAnswer("jn-twice");
    const seen = cloud.stack.pluginStderr().split(TAKEN_OVER).length;
    const second = cloud.stack.up(program("jn-twice"));
    await until("the takeover", async () => (cloud.stack.pluginStderr().split(TAKEN_OVER).length > seen ? true : undefined));
    await cloud.stack.plugin.kill(); // while it waits for the service it took over
    expect((await second).errors.length).toBeGreaterThan(0);
    expectNoErrors(await cloud.stack.up(program("jn-twice")));
    expect(await called("jn-twice")).toEqual([id]);
    expect(cloud.stack.resource("db").id).toBe(id);
    expect(cloud.stack.pluginStderr()).toContain("interrupted 2 times");
  });

  it.each([
    ["is null", "null"],
    ["was torn", '{"v":2,"pid":'],
  ])("%s: the next up never makes a second one, names what the create may have made, and adopting settles it", async (_, text) => {
    const { id, file } = await killedAfterAnswer("jn-unreadable");
    fs.writeFileSync(file, text);
    const r = await cloud.stack.up(program("jn-unreadable"));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain("cannot be read");
    expect(r.errors[0].message).toContain(file);
    expect(r.errors[0].message).toContain(`adoptId: "${id}"`);
    expect(await called("jn-unreadable")).toEqual([id]);
    expectNoErrors(await cloud.stack.up(program("jn-unreadable", id)));
    expect(cloud.stack.resource("db").id).toBe(id);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });

  /** Where version 0.1 kept the entry of this stack's create of service `db` named `name` (a name the program set). */
  const legacyFileOf = (name: string): string =>
    legacyEntryFile(cloud.journalDir, cloud.emulator.baseUrl, cloud.emulator.projectId, "Service", "test-project/test/clouddb.Service/db", {
      name,
      serviceType: "TIMESERIES",
      regionCode: "us-east-1",
    });

  /** The file a message says to remove. */
  const fileToRemove = (message: string): string => {
    const named = /remove (\S+?)(?:\.? and run|\.$|\. )/.exec(message);
    if (named === null) throw new Error(`the message names no file to remove: ${message}`);
    return named[1];
  };

  it.each([
    ["holds null", () => "null"],
    // 0.1's own shape, naming a process that still runs: a create under way elsewhere.
    ["names a process that still runs", (pid: number) => JSON.stringify({ pid, engine: [pid], startedAt: Date.now() })],
  ])("of version 0.1 %s: the message names that file, and removing exactly it lets the next up through", async (_, text) => {
    const other: ChildProcess = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      const legacy = legacyFileOf("jn-legacy");
      fs.writeFileSync(legacy, text(other.pid!), { mode: 0o600 });
      const r = await cloud.stack.up(program("jn-legacy"));
      expect(r.errors).toHaveLength(1);
      const named = fileToRemove(r.errors[0].message);
      expect(named).toBe(legacy);
      expect(await called("jn-legacy")).toEqual([]);
      fs.rmSync(named);
      expectNoErrors(await cloud.stack.up(program("jn-legacy")));
      expect(await called("jn-legacy")).toEqual([cloud.stack.resource("db").id]);
      expect(journalEntries(cloud.journalDir)).toEqual([]);
    } finally {
      other.kill();
    }
  });
});

describe("a journal directory", () => {
  let cloud: Cloud;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-journal-dirs-"));
  beforeAll(async () => {
    cloud = await startCloud({ host: "plugin" });
  });
  afterAll(async () => {
    await cloud.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A stack whose plugin keeps its journal in `dir`. */
  async function stackWith(dir: string, name: string): Promise<TestStack> {
    return TestStack.create({
      host: "plugin",
      stack: name,
      config: stackConfig(cloud.emulator),
      secretKeys: ["clouddb:apiKey"],
      env: { CLOUDDB_JOURNAL_DIR: dir },
    });
  }

  const WARNING = "the journal of creates in flight cannot be kept in";

  it("that cannot be written: the user is told once, clearly, and creates go on", async () => {
    const file = path.join(scratch, "a-file");
    fs.writeFileSync(file, "");
    const stack = await stackWith(path.join(file, "journal"), "unwritable");
    try {
      const r = expectNoErrors(
        await stack.up(() => {
          new clouddb.Vpc("a", { name: "unwritable-a", cidr: "10.80.0.0/16", regionCode: "us-east-1" });
          new clouddb.Vpc("b", { name: "unwritable-b", cidr: "10.81.0.0/16", regionCode: "us-east-1" });
        }),
      );
      expect(printed(r).split(WARNING)).toHaveLength(2);
      expect(printed(r)).toContain("ENOTDIR");
      expect(printed(r)).toContain("Set CLOUDDB_JOURNAL_DIR");
      expect(stack.resources()).toHaveLength(2);
      expectNoErrors(await stack.destroy());
    } finally {
      await stack.close();
    }
  });

  it("that cannot be written: a create whose answer is lost still makes one resource", async () => {
    const file = path.join(scratch, "another-file");
    fs.writeFileSync(file, "");
    const stack = await stackWith(path.join(file, "journal"), "unwritable-lost");
    try {
      await cloud.controls.fault({ method: "POST", path: "/vpcs$", status: 503, after: true });
      expectNoErrors(await stack.up(() => void new clouddb.Vpc("own", { cidr: "10.82.0.0/16", regionCode: "us-east-1" })));
      const own = stack.resource("own");
      expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([own.id]);
      expectNoErrors(await stack.destroy());
    } finally {
      await stack.close();
    }
  });

  it("that others may write: tightened to this user's alone (0700), its entries 0600", async () => {
    const dir = path.join(scratch, "shared");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    const stack = await stackWith(dir, "shared");
    try {
      await cloud.controls.latency(300);
      const running = stack.up(() => void new clouddb.Vpc("net", { name: "shared-dir", cidr: "10.83.0.0/16", regionCode: "us-east-1" }));
      const entry = await until("the entry", async () => fs.readdirSync(dir).find((f) => /^[0-9a-f]{40}\.json$/.test(f)));
      expect(fs.statSync(path.join(dir, entry)).mode & 0o777).toBe(0o600);
      expectNoErrors(await running);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expectNoErrors(await stack.destroy());
    } finally {
      await cloud.controls.latency(0);
      await stack.close();
    }
  });

  const refusals: Array<[string, (dir: string) => void, string]> = [
    [
      "that is a symbolic link",
      (dir) => {
        fs.mkdirSync(`${dir}-target`);
        fs.symlinkSync(`${dir}-target`, dir);
      },
      "symbolic link",
    ],
  ];
  // Only root can give a directory to another user.
  if (process.getuid?.() === 0) {
    refusals.push([
      "that belongs to another user",
      (dir) => {
        fs.mkdirSync(dir, { mode: 0o700 });
        fs.chownSync(dir, 65534, 65534);
      },
      "belongs to another user",
    ]);
  }

  it.each(refusals)("%s: refused, with a message saying why, and creates go on", async (what, make, why) => {
    const dir = path.join(scratch, what.replace(/\W+/g, "-"));
    make(dir);
    const stack = await stackWith(dir, what.replace(/\W+/g, "-").slice(0, 20));
    try {
      const r = expectNoErrors(
        await stack.up(() => void new clouddb.Vpc("net", { name: "refused-dir", cidr: "10.84.0.0/16", regionCode: "us-east-1" })),
      );
      expect(printed(r)).toContain(WARNING);
      expect(printed(r)).toContain(why);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith(".json"))).toEqual([]);
      expectNoErrors(await stack.destroy());
    } finally {
      await stack.close();
    }
  });
});
