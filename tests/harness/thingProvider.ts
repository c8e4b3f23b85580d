/**
 * A tiny dynamic provider for the harness's self-tests. Its "cloud" is a JSON file whose path
 * is the input `cloudFile`, so the plugin process and the test both see it. Every call is
 * appended to the file's `log` as `<op>:<key>` (plus details), in call order. Writes are
 * atomic (a temporary file renamed over the old), so a reader never sees half a file.
 */
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";

/** The cloud file's content. */
export interface Cloud {
  nextId: number;
  items: Record<string, Record<string, unknown>>;
  log: string[];
  /** Creates, updates and deletes running now, and the most ever seen at once. */
  inflight: number;
  maxInflight: number;
}

function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** Creates an empty cloud file. */
export function newCloud(file: string): void {
  atomicWrite(file, JSON.stringify({ nextId: 1, items: {}, log: [], inflight: 0, maxInflight: 0 }));
}

/** Reads the cloud file. */
export function readCloud(file: string): Cloud {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Cloud;
}

/** Rewrites the cloud file. */
export function writeCloud(file: string, cloud: Cloud): void {
  atomicWrite(file, JSON.stringify(cloud));
}

type Props = Record<string, any>;

// Everything below runs in the plugin process: no captured modules, `require` inside.
function mutate<T>(file: string, f: (c: Cloud) => T): T {
  const nodeFs: typeof import("fs") = require("fs");
  const c = JSON.parse(nodeFs.readFileSync(file, "utf8")) as Cloud;
  const r = f(c);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  nodeFs.writeFileSync(tmp, JSON.stringify(c));
  nodeFs.renameSync(tmp, file);
  return r;
}

function computeOuts(id: string, inputs: Props): Props {
  return { ...inputs, sizeLabel: `${inputs.size}GB`, token: `tok-${id}-s3cr3t` };
}

async function busy(file: string, ms: number | undefined): Promise<void> {
  mutate(file, (c) => {
    c.inflight++;
    c.maxInflight = Math.max(c.maxInflight, c.inflight);
  });
  if (ms) await new Promise((r) => setTimeout(r, ms));
  mutate(file, (c) => void c.inflight--);
}

/** The provider object (one per process, so its serialization is cached). */
export const thingProvider: pulumi.dynamic.ResourceProvider = {
  // Writes the config and environment it sees to $THING_CONFIG_OUT (when set), so tests can see Configure.
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    const out = process.env.THING_CONFIG_OUT;
    if (out) {
      const nodeFs: typeof import("fs") = require("fs");
      const seen = {
        greeting: req.config.get("test:greeting"),
        token: req.config.get("test:token"),
        bare: req.config.get("greeting"),
        env: {
          PULUMI_NODEJS_PROJECT: process.env.PULUMI_NODEJS_PROJECT,
          PULUMI_PROJECT: process.env.PULUMI_PROJECT,
          PULUMI_CONFIG: process.env.PULUMI_CONFIG,
          PULUMI_NODEJS_STACK: process.env.PULUMI_NODEJS_STACK,
        },
        pid: process.pid,
        cwd: process.cwd(),
      };
      nodeFs.appendFileSync(out, `${JSON.stringify(seen)}\n`);
      // How the process is ended: the engine interrupts it (SIGINT) at the end of the run.
      process.once("SIGINT", () => {
        nodeFs.appendFileSync(out, `${JSON.stringify({ signal: "SIGINT", pid: process.pid })}\n`);
        process.exit(130);
      });
    }
  },
  async check(olds: Props, news: Props) {
    mutate(news.cloudFile, (c) =>
      c.log.push(`check:${news.key}:ref=${String(news.ref)}:olds=${olds.size ?? "none"}:tag=${JSON.stringify(news.tag ?? null)}`),
    );
    if (news.slowCheckMs) await new Promise((r) => setTimeout(r, news.slowCheckMs));
    mutate(news.cloudFile, (c) => c.log.push(`check-end:${news.key}`));
    const failures: pulumi.dynamic.CheckFailure[] = [];
    if (typeof news.size !== "number" || news.size < 1) {
      failures.push({ property: "size", reason: `size must be a number >= 1, got ${JSON.stringify(news.size)}` });
    }
    if (typeof news.secretInput === "string" && news.secretInput.length < 4) {
      failures.push({ property: "secretInput", reason: "secretInput is too short" });
    }
    return { inputs: news, failures };
  },
  async diff(id: string, olds: Props, news: Props) {
    mutate(news.cloudFile, (c) => c.log.push(`diff:${news.key}:${id}:olds.size=${olds.size}:olds.sizeLabel=${olds.sizeLabel}`));
    const keys = ["size", "ref", "replaceKey", "secretInput", "failInit", "tag"];
    const changed = keys.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    const replaces = changed.filter((k) => k === "replaceKey" || (k === "ref" && news.refReplaces === true));
    if (news.diffUnknown) return { replaces };
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: news.dbr === true };
  },
  async create(inputs: Props) {
    const id = mutate(inputs.cloudFile, (c) => {
      const newId = `id-${c.nextId++}`;
      c.log.push(`create-start:${inputs.key}:${newId}`);
      return newId;
    });
    if (inputs.blockUntil) {
      const nodeFs: typeof import("fs") = require("fs");
      while (!nodeFs.existsSync(inputs.blockUntil)) await new Promise((r) => setTimeout(r, 20));
    }
    await busy(inputs.cloudFile, inputs.slowMs);
    if (inputs.failPlain) {
      throw new Error(`cannot create ${inputs.key}`);
    }
    const outs = computeOuts(id, inputs);
    mutate(inputs.cloudFile, (c) => {
      c.items[id] = outs;
      c.log.push(`create:${inputs.key}:${id}`);
    });
    if (inputs.failInit) {
      const err = new Error(`${inputs.key} did not become ready`) as Error & Props;
      err.id = id;
      err.properties = outs;
      err.reasons = [`${inputs.key} is not ready`];
      throw err;
    }
    return { id, outs };
  },
  async update(id: string, olds: Props, news: Props) {
    await busy(news.cloudFile, news.slowMs);
    if (news.failUpdate) throw new Error(`cannot update ${news.key}`);
    const outs = computeOuts(id, news);
    mutate(news.cloudFile, (c) => {
      c.items[id] = outs;
      c.log.push(`update:${news.key}:${id}:from=${olds.size}`);
    });
    return { outs };
  },
  async read(id: string, props: Props) {
    const item = mutate(props.cloudFile, (c) => {
      c.log.push(
        `read:${props.key}:${id}:props=${Object.keys(props)
          .filter((k) => k !== "__provider")
          .sort()
          .join(",")}`,
      );
      return c.items[id];
    });
    if (props.failRead) throw new Error(`cannot read ${props.key}`);
    if (!item) return { id: "", props: {} };
    const { sizeLabel: _l, token: _t, ...inputs } = item;
    void _l;
    void _t;
    return { id, props: { ...item }, inputs };
  },
  async delete(id: string, props: Props) {
    mutate(props.cloudFile, (c) => c.log.push(`delete-start:${props.key}:${id}`));
    await busy(props.cloudFile, props.slowMs);
    if (props.failDelete) throw new Error(`cannot delete ${props.key}`);
    mutate(props.cloudFile, (c) => {
      delete c.items[id];
      c.log.push(`delete:${props.key}:${id}`);
    });
  },
};

/** Inputs of {@link Thing}. */
export interface ThingArgs {
  cloudFile: string;
  size: pulumi.Input<number>;
  ref?: pulumi.Input<string>;
  /** A change to `ref` replaces. */
  refReplaces?: boolean;
  replaceKey?: pulumi.Input<string>;
  secretInput?: pulumi.Input<string>;
  tag?: pulumi.Input<Record<string, unknown>>;
  dbr?: boolean;
  /** Diff leaves `changes` undefined. */
  diffUnknown?: boolean;
  failInit?: boolean;
  failPlain?: boolean;
  failUpdate?: boolean;
  failDelete?: boolean;
  failRead?: boolean;
  blockUntil?: string;
  /** Create, update and delete take this long. */
  slowMs?: number;
  /** Check takes this long. */
  slowCheckMs?: number;
}

/** The test resource `pulumi-nodejs:dynamic/test:Thing`. */
export class Thing extends pulumi.dynamic.Resource {
  // `declare`: with ES2022 class fields a plain `!` field would overwrite what super() set.
  declare readonly key: pulumi.Output<string>;
  declare readonly size: pulumi.Output<number>;
  declare readonly sizeLabel: pulumi.Output<string>;
  declare readonly token: pulumi.Output<string>;
  declare readonly ref: pulumi.Output<string | undefined>;

  constructor(name: string, args: ThingArgs, opts?: pulumi.CustomResourceOptions) {
    super(thingProvider, name, { key: name, sizeLabel: undefined, token: undefined, ...args }, opts, "test", "Thing");
  }
}
