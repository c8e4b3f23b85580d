/**
 * A fleet of stacks for the bench: K stacks, each its own plugin process (Pulumi's real
 * dynamic-provider host, started through the CLI's shim and configured as the CLI configures it:
 * harness/pluginHost.ts), sharing one API key and one emulator, and one journal directory (this
 * user's, as on one machine) or one each (as on machines of their own). Each stack's `up` is what the engine does for a
 * program of S new services with `--parallel S`: Check of each, one after the other, then every
 * Create at once. The engine's program side is left out (the harness runs one program at a
 * time per process: harness/processTurns.ts), so that K stacks run at once in one bench process.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PluginHost, TestStack } from "../harness";
import { defaultConfig, type EmulatorProcess } from "../harness/emulatorProcess";
import type { JsonObject } from "../harness/protos";
import type { Tree } from "./trees";

/** The inputs a tree's SDK gives a Service (its serialized provider among them), as a template. */
export interface ServiceTemplate {
  /** The registered inputs of one Service, `name` and `__owner` to be replaced. */
  readonly inputs: JsonObject;
  /** Whether the SDK sends `__owner` (the stack and resource asking). */
  readonly owned: boolean;
}

/** The inputs `tree`'s SDK registers for a Service: read from the state of a one-service `up` against `emu`. */
export async function serviceTemplate(tree: Tree, emu: EmulatorProcess): Promise<ServiceTemplate> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  // What users run: the real plugin process (not the test harness's in-process host).
  const stack = await TestStack.create({
    host: "plugin",
    config: defaultConfig(emu),
    secretKeys: ["clouddb:apiKey"],
    cwd: tree.root,
    env: { CLOUDDB_JOURNAL_DIR: journal },
  });
  const sdk = tree.sdk();
  try {
    const r = await stack.up(() => void new sdk.Service("template", { name: "template" }));
    if (r.errors.length > 0) throw new Error(`the template service of ${tree.label} failed: ${JSON.stringify(r.errors)}`);
    const inputs = { ...stack.resource("template").inputs };
    return { inputs, owned: "__owner" in inputs };
  } finally {
    await stack.close();
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** How one stack's `up` went. */
export interface StackRun {
  /** From the fleet's start to its last create's end, ms; undefined when it was not done within the cap. */
  wallMs: number | undefined;
  /** Creates that failed, with their messages. */
  errors: string[];
}

/** One stack of the fleet: a plugin process of its own. */
export class FleetStack {
  private constructor(
    private readonly plugin: PluginHost,
    private readonly name: string,
    private readonly template: ServiceTemplate,
  ) {}

  /**
   * Starts the stack's plugin process in `tree`'s directory and configures it for `apiUrl`
   * (a proxy of the emulator's), with `env` (the shared journal directory).
   */
  static async start(
    tree: Tree,
    name: string,
    template: ServiceTemplate,
    config: Record<string, string>,
    env: Record<string, string>,
  ): Promise<FleetStack> {
    let stderr = "";
    const plugin = new PluginHost({ project: "fleet", cwd: tree.root, env, onStderr: (t) => (stderr += t) });
    try {
      await plugin.start();
      await plugin.configure(config, ["clouddb:apiKey"]);
    } catch (e) {
      await plugin.kill();
      throw new Error(`stack ${name} could not start: ${(e as Error).message} ${stderr}`, { cause: e });
    }
    return new FleetStack(plugin, name, template);
  }

  private urn(service: string): string {
    return `urn:pulumi:${this.name}::fleet::pulumi-nodejs:dynamic/clouddb:Service::${service}`;
  }

  /** Loads what a create needs in the plugin (a read of a service that is not there), before anything is measured. */
  async warm(): Promise<void> {
    await this.plugin.read(this.urn("warm"), "notthere00", { ...this.template.inputs, name: "warm" }).catch(() => undefined);
  }

  /**
   * The engine's `up` of `services` new services: Check of each in turn, then every Create at
   * once; `capMs` after `startedAt` it stops waiting (the stack is not done: `wallMs` undefined).
   */
  async up(services: number, startedAt: number, capMs = Infinity): Promise<StackRun> {
    const checked: { urn: string; inputs: JsonObject }[] = [];
    const errors: string[] = [];
    for (let i = 0; i < services; i++) {
      const urn = this.urn(`db-${i}`);
      const news: JsonObject = { ...this.template.inputs, name: `${this.name}-db-${i}` };
      if (this.template.owned) news.__owner = `fleet/${this.name}/clouddb.Service/db-${i}`;
      const c = await this.plugin.check(urn, {}, news);
      if (c.failures.length > 0) errors.push(`${urn}: ${JSON.stringify(c.failures)}`);
      else checked.push({ urn, inputs: c.inputs });
    }
    const creates = Promise.all(
      checked.map(({ urn, inputs }) =>
        this.plugin.create(urn, inputs).catch((e: unknown) => {
          errors.push(`${urn}: ${(e as Error).message}`);
        }),
      ),
    ).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<false>(
      (resolve) => (timer = setTimeout(() => resolve(false), Math.min(2 ** 31 - 1, Math.max(0, startedAt + capMs - Date.now())))),
    );
    const done = await Promise.race([creates, cap]).finally(() => clearTimeout(timer));
    return { wallMs: done ? Date.now() - startedAt : undefined, errors };
  }

  /** Ends the plugin as the engine does at the end of a run. */
  async close(): Promise<void> {
    await this.plugin.close();
  }
}

/** The variables of `names` this process has, passed on to each stack (a fleet told its size, fleetSlots.ts). */
function passedOn(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (process.env[n] ? [[n, process.env[n]]] : [])));
}

/**
 * Starts `k` stacks of `tree`, a few at a time (the machine has 2 cores): with `machines` 1 all
 * share one journal directory (this user's, as on one machine), else each has its own under
 * `journal` (each process its own pacing files, as on machines of their own). With
 * `BENCH_FLEET_NUMBERED=1` each of those machines is told its number in the fleet
 * (`CLOUDDB_FLEET_MACHINE_INDEX`, with the `CLOUDDB_FLEET_MACHINES` this process passes on).
 */
export async function startFleet(
  tree: Tree,
  k: number,
  template: ServiceTemplate,
  apiUrl: string,
  emu: EmulatorProcess,
  journal: string,
  machines: number,
): Promise<FleetStack[]> {
  const config = { ...defaultConfig(emu), "clouddb:apiUrl": apiUrl };
  const numbered = process.env.BENCH_FLEET_NUMBERED === "1";
  const stacks: FleetStack[] = [];
  const dirOf = (i: number): string => (machines === 1 ? journal : path.join(journal, `machine-${i % machines}`));
  try {
    for (let i = 0; i < k; i += 5) {
      const batch = Array.from({ length: Math.min(5, k - i) }, (_, j) =>
        FleetStack.start(tree, `tenant-${i + j}`, template, config, {
          CLOUDDB_JOURNAL_DIR: dirOf(i + j),
          ...passedOn(["CLOUDDB_FLEET_MACHINES", "CLOUDDB_KEY_RATE_LIMIT"]),
          ...(numbered && machines > 1 ? { CLOUDDB_FLEET_MACHINE_INDEX: String((i + j) % machines) } : {}),
        }),
      );
      stacks.push(...(await Promise.all(batch)));
    }
    for (const s of stacks) await s.warm();
    return stacks;
  } catch (e) {
    await Promise.all(stacks.map((s) => s.close().catch(() => undefined)));
    throw e;
  }
}
