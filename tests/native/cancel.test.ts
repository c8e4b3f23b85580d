/**
 * The engine's Cancel reaches every wait of the native plugin, whenever it comes: before the
 * create (no client made yet), while its POST is on the way, right after the API's answer
 * (before the create takes the client it waits with: where a Cancel that closed the clients
 * it knew once missed the one made next), and while it waits. The provider runs in this
 * process (a fresh copy of its modules for each case, as a fresh plugin process), against
 * the emulator over real HTTP; the Cancel is injected at each point, not timed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { ClouddbClient } from "../../provider/client";
import type { ClouddbProvider } from "../../provider/native/provider";
import { ClouddbClient as TestClient, type ClouddbClient as ClientClass } from "../../provider/client/client";
import { urnOf } from "./support";

/** A service takes about 20 s to be ready at this scale: any create that returns sooner stopped waiting. */
const CLOCK_SCALE = 2;

/**
 * A fresh copy of the provider's modules (a new plugin process: its own cancellation signal
 * and clients), and the client classes its clients may be made of, to watch: the provider
 * loads the client module when it first needs it, which may be this copy's or the test's.
 */
function freshPlugin(): { provider: ClouddbProvider; Clients: Array<typeof ClientClass> } {
  let loaded: { provider: ClouddbProvider; Clients: Array<typeof ClientClass> } | undefined;
  jest.isolateModules(() => {
    const { ClouddbProvider: Provider } = require("../../provider/native/provider") as typeof import("../../provider/native/provider");
    const { ClouddbClient: Client } = require("../../provider/client/client") as typeof import("../../provider/client/client");
    loaded = { provider: new Provider({ log: async () => undefined }), Clients: [Client, TestClient] };
  });
  return loaded!;
}

const wired = (props: Record<string, unknown>) => ({ props, secrets: new Set<string>() });

describe("Cancel reaches every wait of the native plugin", () => {
  let emu: RunningEmulator;
  let api: ClouddbClient;
  let control: EmulatorControl;
  let journal: string;
  const saved = process.env.CLOUDDB_JOURNAL_DIR;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: CLOCK_SCALE });
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    control = new EmulatorControl(emu.url, emu.pat);
    journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-cancel-"));
    process.env.CLOUDDB_JOURNAL_DIR = journal;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.CLOUDDB_JOURNAL_DIR;
    else process.env.CLOUDDB_JOURNAL_DIR = saved;
    await api.close();
    await emu.close();
    fs.rmSync(journal, { recursive: true, force: true });
  });
  afterEach(async () => {
    await control.send("DELETE", "/faults");
    jest.restoreAllMocks();
  });

  /** Configures `provider`, checks a service `name`, and starts its create; the create's error (or an Error saying it succeeded). */
  async function creating(provider: ClouddbProvider, name: string): Promise<{ urn: string; failed: Promise<Error> }> {
    await provider.configure(wired({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms" }));
    const urn = urnOf("Service", name);
    const { inputs } = await provider.check(urn, wired({}), wired({ name }));
    const failed = provider.create(urn, wired(inputs.props), false, 0).then(
      () => new Error("the create succeeded: it waited for the service to be ready"),
      (e: unknown) => e as Error,
    );
    return { urn, failed };
  }

  /** The service named `name`, as the API lists it. */
  async function serviceNamed(name: string) {
    return (await api.perform("listServices")).items.find((s) => s.name === name);
  }

  /** Asserts `e` is the partial failure of a create that stopped waiting for service `name`, which exists and is not ready yet. */
  async function expectStoppedWaiting(e: Error, name: string): Promise<void> {
    const made = await serviceNamed(name);
    expect(made).toBeDefined();
    expect(made!.status).not.toBe("READY");
    expect(e.message).toMatch(new RegExp(`Service ${made!.service_id} \\(${name}\\) was created but is not ready`));
    expect(e.message).toMatch(/Pulumi cancelled the operation \(Ctrl-C\)/);
    expect((e as { id?: unknown }).id).toBe(made!.service_id); // a partial failure: the engine keeps it in state
  }

  it("before the create, no client made yet: nothing is sent, nothing made", async () => {
    const { provider } = freshPlugin();
    await control.clearRequests();
    await provider.cancel();
    const { failed } = await creating(provider, "cancelled-before");
    const e = await failed;
    expect(e.message).not.toMatch(/the create succeeded/);
    expect(await serviceNamed("cancelled-before")).toBeUndefined();
    expect((await control.requests()).filter((r) => r.method === "POST")).toEqual([]);
  });

  /** Runs `around` about each `createService` of the `Clients`: it gets the call under way, and returns what the caller gets. */
  function aroundCreate(Clients: Array<typeof ClientClass>, around: (call: Promise<unknown>) => Promise<unknown>): void {
    for (const Client of new Set(Clients)) {
      const perform = Client.prototype.perform;
      jest.spyOn(Client.prototype, "perform").mockImplementation(function (this: ClientClass, ...args: Parameters<typeof perform>) {
        const call = perform.apply(this, args);
        return args[0] === "createService" ? around(call) : call;
      } as typeof perform);
    }
  }

  it("while the create's POST is on the way (the gateway holds it 1 s): its answer is kept, and the wait ends at once", async () => {
    const { provider, Clients } = freshPlugin();
    await control.fault({ method: "POST", path: "/services$", repeat: true, holdMs: 1_000, count: 1 });
    aroundCreate(Clients, async (call) => {
      await new Promise((r) => setTimeout(r, 200));
      await provider.cancel();
      return call;
    });
    const { failed } = await creating(provider, "cancelled-sending");
    await expectStoppedWaiting(await failed, "cancelled-sending");
  });

  it("right after the API's answer, before the create takes the client it waits with", async () => {
    const { provider, Clients } = freshPlugin();
    aroundCreate(Clients, async (call) => {
      const answer = await call;
      await provider.cancel();
      return answer;
    });
    const { failed } = await creating(provider, "cancelled-answered");
    await expectStoppedWaiting(await failed, "cancelled-answered");
  });

  it("while the create waits for the service to be ready", async () => {
    const { provider } = freshPlugin();
    await control.clearRequests();
    const { failed } = await creating(provider, "cancelled-waiting");
    await until(async () => (await control.requests()).some((r) => r.method === "GET" && /\/services\/\w+$/.test(r.path)));
    await provider.cancel();
    await expectStoppedWaiting(await failed, "cancelled-waiting");
  });
});

/** Resolves once `ready()` is true, looking every 20 ms. */
async function until(ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 20));
}
