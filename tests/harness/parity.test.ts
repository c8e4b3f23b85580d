/**
 * Parity of the ways the suites run a stack: the provider served in process
 * (harness/inProcessHost.ts), the real dynamic-provider plugin process the harness starts
 * (harness/pluginHost.ts), and, under `npm run test:cli` (`CLOUDDB_ENGINE=cli`), the real
 * Pulumi CLI, as it runs by default and with its diffs run in parallel
 * (`PULUMI_PARALLEL_DIFF=true`, which README's "How it scales" offers large stacks: the engine
 * then asks for each resource's Diff beside the others' instead of one after another). A dozen scenarios users meet, each run on a fresh emulator per way; every
 * command's steps, errors, check failures, warnings, stack outputs and write requests, and
 * the state at the end, must be the same, once what differs by nature is named alike (ids,
 * times, the emulator's address, generated passwords).
 *
 * The in-process host is what most suites run on: this suite is why their results stand
 * for the plugin's and the CLI's.
 */
import * as clouddb from "pulumi-clouddb";
import { TestStack, type ProviderHostKind, type RefreshResult, type UpOptions, type UpResult } from "../../harness";
import { PARALLEL_DIFF } from "../../harness/cli/parallelDiff";
import { startCloud, writes, type Cloud, type CloudOptions } from "../../harness/cloud";

/**
 * The ways a scenario runs: the dynamic provider in process and as the plugin process, the
 * native plugin's service in process (harness/nativeHost.ts); the CLI, as it runs by default
 * and with `PULUMI_PARALLEL_DIFF=true`, only in the real-CLI tier, where it is built and
 * required.
 */
type Way = ProviderHostKind | "cli" | "cli, parallel diff";
const WAYS: readonly Way[] =
  process.env.CLOUDDB_ENGINE === "cli"
    ? ["in-process", "plugin", "native", "cli", "cli, parallel diff"]
    : ["in-process", "plugin", "native"];

/** How `way` runs a stack: what serves the provider, what runs the commands, and with which environment. */
function wayOptions(way: Way): CloudOptions {
  if (way === "cli") return { engine: "cli" };
  if (way === "cli, parallel diff") return { engine: "cli", env: { ...PARALLEL_DIFF } };
  return { engine: "model", host: way };
}

/**
 * What the dynamic host alone records beside a resource's outputs, by nature: the serialized
 * provider (`__provider`) and the names of the inputs given (`__inputs`, which the native
 * plugin's Read is given instead). Left out of the comparison with the native host.
 */
const DYNAMIC_ONLY = ["__provider", "__inputs"];

/** `record` as the native host is compared with: without {@link DYNAMIC_ONLY} in the state's outputs. */
function comparableWithNative(record: { commands: CommandRecord[]; state: unknown }): unknown {
  const state = (record.state as { outputs: Record<string, unknown> }[]).map((r) => ({
    ...r,
    outputs: Object.fromEntries(Object.entries(r.outputs).filter(([k]) => !DYNAMIC_ONLY.includes(k))),
  }));
  return { ...record, state };
}

/** One command as the comparison sees it. */
interface CommandRecord {
  command: string;
  steps: string[];
  errors: string[];
  checkFailures: string[];
  warnings: string[];
  outputs?: Record<string, unknown>;
  writes: string[];
}

/** What a scenario runs commands with. */
interface Run {
  readonly cloud: Cloud;
  /** Names ids the scenario makes out of band. */
  readonly names: Names;
  readonly stack: TestStack;
  up(program: () => unknown, options?: UpOptions): Promise<UpResult>;
  preview(program: () => unknown): Promise<UpResult>;
  refresh(): Promise<RefreshResult>;
  destroy(): Promise<UpResult>;
}

/** One scenario: what it runs, and the emulator it needs. */
interface Scenario {
  title: string;
  cloud?: CloudOptions;
  body(run: Run): Promise<void>;
}

const vpc = (name: string, extra: Partial<clouddb.VpcArgs> = {}) =>
  new clouddb.Vpc(name, { name, cidr: "10.30.0.0/16", regionCode: "us-east-1", ...extra });

const SCENARIOS: Scenario[] = [
  {
    title: "creates a VPC and a service attached to it, and gives back their outputs",
    async body(run) {
      await run.up(() => {
        const net = vpc("net");
        const db = new clouddb.Service("db", { name: "orders", vpcId: net.vpcId });
        return { cidr: net.cidr, status: db.status, attached: db.vpcId.apply((v) => (v === undefined ? "no" : "yes")) };
      });
    },
  },
  {
    title: "an up with nothing changed shows every resource the same and sends no write",
    async body(run) {
      const program = () => void new clouddb.Service("db", { name: "orders", environment: "PROD" });
      await run.up(program);
      await run.up(program);
      await run.preview(program);
    },
  },
  {
    title: "a resize and an environment change are updates in place, one write each",
    async body(run) {
      await run.up(() => void new clouddb.Service("db", { name: "orders" }));
      await run.up(() => void new clouddb.Service("db", { name: "orders", cpuMillis: 1000, memoryGbs: 4, environment: "PROD" }));
    },
  },
  {
    title: "a change of name replaces the VPC, the new one made before the old is deleted",
    async body(run) {
      await run.up(() => void vpc("net"));
      await run.up(() => void vpc("net", { name: "renamed" }));
    },
  },
  {
    title: "a preview of new resources sends nothing and shows their outputs unknown",
    async body(run) {
      await run.preview(() => {
        const net = vpc("net");
        return { id: net.vpcId, cidr: net.cidr };
      });
    },
  },
  {
    title: "check refuses bad inputs naming each property, before anything is sent",
    async body(run) {
      // One resource: the first failing Check ends the run, and two registrations may reach
      // the engine in either order (harness/README.md, CF5 and RG5).
      await run.up(() => void new clouddb.Service("db", { name: "", cpuMillis: 3, environment: "TEST" as "DEV" }));
    },
  },
  {
    title: "a create that times out stays in state with its id and the reason, and the next up waits for it",
    // A create takes about 4 s: the timeout outlasts the first polls, not the create, and leaves
    // time to send the create's request however loaded the machine (none is sent past the
    // deadline: a shorter one could make nothing in one way and a service in another).
    cloud: { clockScale: 0.6 },
    async body(run) {
      await run.up(() => void new clouddb.Service("db", { name: "slow", timeouts: { create: "1.5s" } }));
      await run.up(() => void new clouddb.Service("db", { name: "slow" }));
    },
  },
  {
    title: "refresh shows drift made out of band, and the next up repairs it",
    async body(run) {
      const program = () => void new clouddb.Service("db", { name: "orders", environment: "PROD" });
      await run.up(program);
      await run.cloud.api.perform("setServiceEnvironment", { service: run.stack.resource("db").id, body: { environment: "DEV" } });
      await run.refresh();
      await run.up(program);
    },
  },
  {
    title: "refresh drops a VPC deleted out of band, and the next up makes it again",
    async body(run) {
      const program = () => void vpc("net");
      await run.up(program);
      await run.cloud.api.perform("deleteVpc", { vpc: run.stack.resource("net").id });
      await run.refresh();
      await run.up(program);
    },
  },
  {
    title: "adoptId takes an existing VPC over, and destroy leaves it in the cloud",
    async body(run) {
      const existing = await run.cloud.api.perform("createVpc", {
        body: { name: "by-hand", cidr: "10.30.0.0/16", region_code: "us-east-1" },
      });
      run.names.name(existing.id, "<by-hand>");
      await run.up(() => void vpc("net", { adoptId: existing.id }));
      await run.destroy();
      await run.cloud.api.perform("getVpc", { vpc: existing.id });
    },
  },
  {
    title: "Resource.get reads an existing VPC without managing it",
    async body(run) {
      const existing = await run.cloud.api.perform("createVpc", {
        body: { name: "shared", cidr: "10.31.0.0/16", region_code: "us-east-1" },
      });
      run.names.name(existing.id, "<shared>");
      await run.up(() => {
        const found = clouddb.Vpc.get("found", existing.id);
        return { name: found.name, cidr: found.cidr };
      });
    },
  },
  {
    title: "a secret password stays secret in outputs and state, and destroy deletes dependents first",
    async body(run) {
      await run.up(() => {
        const net = vpc("net");
        const db = new clouddb.Service("db", { name: "orders", vpcId: net.vpcId, password: "a-long-enough-password" });
        new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
        return { password: db.password };
      });
      await run.destroy();
    },
  },
];

describe(
  "parity: in process, the plugin process, the native plugin" +
    (WAYS.includes("cli") ? " and the real CLI, its diffs one after another and in parallel" : ""),
  () => {
    for (const scenario of SCENARIOS) {
      it(scenario.title, async () => {
        const records: Record<string, { commands: CommandRecord[]; state: unknown }> = {};
        for (const way of WAYS) records[way] = await record(way, scenario);
        for (const way of WAYS.slice(1)) {
          if (way === "native")
            expect({ [way]: comparableWithNative(records[way]) }).toEqual({ [way]: comparableWithNative(records[WAYS[0]]) });
          else expect({ [way]: records[way] }).toEqual({ [way]: records[WAYS[0]] });
        }
      });
    }
  },
);

/** Runs `scenario` one way, on an emulator of its own, and returns what the comparison sees. */
async function record(way: Way, scenario: Scenario): Promise<{ commands: CommandRecord[]; state: unknown }> {
  const ways = wayOptions(way);
  const cloud = await startCloud({ ...scenario.cloud, ...ways, env: { ...scenario.cloud?.env, ...ways.env } });
  const commands: CommandRecord[] = [];
  const names = new Names(cloud);
  try {
    const command = async <T extends UpResult | RefreshResult>(name: string, go: () => Promise<T>): Promise<T> => {
      await cloud.clearRequests();
      const result = await go();
      const sent = writes(await cloud.requests()).map((w) => `${w.method} ${w.path.replace(/^\/public\/api\/v1\/projects\/[^/]+/, "")}`);
      names.learn(cloud.stack);
      commands.push(sorted(names.scrub(commandRecord(name, result, sent))));
      return result;
    };
    const stack = cloud.stack;
    await scenario.body({
      cloud,
      names,
      stack,
      up: (program, options) => command("up", () => stack.up(program, options)),
      preview: (program) => command("preview", () => stack.preview(program)),
      refresh: () => command("refresh", () => stack.refresh()),
      destroy: () => command("destroy", () => stack.destroy()),
    });
    const state = stack.resources().map((r) => ({
      name: r.name,
      type: r.type,
      id: r.id,
      outputs: Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, r.secretOutputs.includes(k) ? "[secret]" : v])),
      secretOutputs: [...r.secretOutputs].sort(),
      initErrors: r.initErrors,
      dependencies: r.dependencies.map((u) => u.split("::").pop()).sort(),
    }));
    return { commands, state: names.scrub(state) };
  } finally {
    await cloud.close();
  }
}

/** A command's result as compared, messages as printed. */
function commandRecord(command: string, r: UpResult | RefreshResult, sent: string[]): CommandRecord {
  return {
    command,
    steps: r.steps.map((s) => `${s.op}:${s.name}`),
    errors: r.errors.map((e) => (e.name ? `[${e.name}] ${e.message}` : e.message)),
    checkFailures: "checkFailures" in r ? r.checkFailures.map((f) => `[${f.name}] ${f.property}: ${f.reason}`) : [],
    warnings: r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
    ...("outputs" in r ? { outputs: r.outputs } : {}),
    writes: sent,
  };
}

/** `c` with its lists as sets (parallel steps finish, and their requests leave, in any order). */
function sorted(c: CommandRecord): CommandRecord {
  return {
    ...c,
    steps: [...c.steps].sort(),
    errors: [...c.errors].sort(),
    checkFailures: [...c.checkFailures].sort(),
    warnings: [...c.warnings].sort(),
    writes: [...c.writes].sort(),
  };
}

/**
 * Names what differs by nature between two runs alike: each id the cloud made after the
 * resource that holds it (`<net#1>`, `<net#2>` once replaced), ids made out of band after
 * what the scenario calls them, the project, the emulator's address, times.
 */
class Names {
  private readonly ids = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  constructor(private readonly cloud: Cloud) {
    this.name(cloud.emulator.projectId, "<project>");
  }

  /** Names `id` `<label>`, unless it has a name already. */
  name(id: string, label: string): void {
    if (id === "" || this.ids.has(id)) return;
    this.ids.set(id, label);
  }

  /**
   * Names the ids of the resources `stack` holds now, after each resource, and the ids their
   * outputs nest (a service's `resources[0].id` as `<db.resources#1>`).
   */
  learn(stack: TestStack): void {
    const held = [...stack.resources(), ...stack.externalResources()];
    for (const r of held) {
      this.next(r.id, r.name);
      const nested = (value: unknown, where: string): void => {
        if (Array.isArray(value)) value.forEach((v) => nested(v, where));
        else if (typeof value === "object" && value !== null) {
          for (const [k, v] of Object.entries(value)) {
            if (k === "id" && typeof v === "string") this.next(v, where);
            else nested(v, `${where}.${k}`);
          }
        }
      };
      nested(r.outputs, r.name);
    }
  }

  private next(id: string, holder: string): void {
    if (id === "" || this.ids.has(id)) return;
    const n = (this.counts.get(holder) ?? 0) + 1;
    this.counts.set(holder, n);
    this.name(id, `<${holder}#${n}>`);
  }

  scrub<T>(value: T): T {
    let text = JSON.stringify(value);
    text = text.split(this.cloud.emulator.baseUrl).join("<api>");
    text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>");
    // How long a wait took before it timed out.
    text = text.replace(/after \d+ ms/g, "after <n> ms");
    // What the wait last saw by then: on a loaded machine a slower engine may time out before its first poll is answered.
    text = text.replace(/last status seen: (none \(no successful poll\)|[A-Z_]+)\./g, "last status seen: <status>.");
    // Longest first: a numeric id may hold a shorter one.
    for (const [id, label] of [...this.ids].sort((a, b) => b[0].length - a[0].length)) text = text.split(id).join(label);
    return JSON.parse(text) as T;
  }
}
