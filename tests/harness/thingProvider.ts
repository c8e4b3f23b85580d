/**
 * A tiny dynamic provider for the harness's self-tests. Its "cloud" is a JSON file whose path
 * is the input `cloudFile`, so the plugin process and the test both see it. Every call is
 * appended to the file's `log` as `<op>:<key>` (plus details), in call order.
 */
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";

/** The cloud file's content. */
export interface Cloud {
  nextId: number;
  items: Record<string, Record<string, unknown>>;
  log: string[];
}

/** Creates an empty cloud file. */
export function newCloud(file: string): void {
  fs.writeFileSync(file, JSON.stringify({ nextId: 1, items: {}, log: [] }));
}

/** Reads the cloud file. */
export function readCloud(file: string): Cloud {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Cloud;
}

/** Rewrites the cloud file. */
export function writeCloud(file: string, cloud: Cloud): void {
  fs.writeFileSync(file, JSON.stringify(cloud));
}

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Everything below runs in the plugin process: no captured modules, `require` inside.
function mutate<T>(file: string, f: (c: Cloud) => T): T {
  const nodeFs: typeof import("fs") = require("fs"); // eslint-disable-line @typescript-eslint/no-require-imports
  const c = JSON.parse(nodeFs.readFileSync(file, "utf8")) as Cloud;
  const r = f(c);
  nodeFs.writeFileSync(file, JSON.stringify(c));
  return r;
}

function computeOuts(id: string, inputs: Props): Props {
  return { ...inputs, sizeLabel: `${inputs.size}GB`, token: `tok-${id}-s3cr3t` };
}

/** The provider object (one per process, so its serialization is cached). */
export const thingProvider: pulumi.dynamic.ResourceProvider = {
  // Writes the config it was given to $THING_CONFIG_OUT (when set), so tests can see Configure.
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    const out = process.env.THING_CONFIG_OUT;
    if (out) {
      const nodeFs: typeof import("fs") = require("fs"); // eslint-disable-line @typescript-eslint/no-require-imports
      nodeFs.appendFileSync(out, `${req.config.get("test:greeting")}\n`);
    }
  },
  async check(olds: Props, news: Props) {
    mutate(news.cloudFile, (c) => c.log.push(`check:${news.key}:ref=${String(news.ref)}`));
    const failures: pulumi.dynamic.CheckFailure[] = [];
    if (typeof news.size !== "number" || news.size < 1) {
      failures.push({ property: "size", reason: `size must be a number >= 1, got ${JSON.stringify(news.size)}` });
    }
    void olds;
    return { inputs: news, failures };
  },
  async diff(id: string, olds: Props, news: Props) {
    mutate(news.cloudFile, (c) => c.log.push(`diff:${news.key}:${id}`));
    const keys = ["size", "ref", "replaceKey", "secretInput", "failInit"];
    const changed = keys.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    const replaces = changed.filter((k) => k === "replaceKey");
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: news.dbr === true };
  },
  async create(inputs: Props) {
    const id = mutate(inputs.cloudFile, (c) => {
      const newId = `id-${c.nextId++}`;
      c.log.push(`create-start:${inputs.key}:${newId}`);
      return newId;
    });
    if (inputs.blockUntil) {
      const nodeFs: typeof import("fs") = require("fs"); // eslint-disable-line @typescript-eslint/no-require-imports
      while (!nodeFs.existsSync(inputs.blockUntil)) await new Promise((r) => setTimeout(r, 20));
    }
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
      err.reasons = ["not ready"];
      throw err;
    }
    return { id, outs };
  },
  async update(id: string, olds: Props, news: Props) {
    const outs = computeOuts(id, news);
    mutate(news.cloudFile, (c) => {
      c.items[id] = outs;
      c.log.push(`update:${news.key}:${id}:from=${olds.size}`);
    });
    return { outs };
  },
  async read(id: string, props: Props) {
    const item = mutate(props.cloudFile, (c) => {
      c.log.push(`read:${props.key}:${id}`);
      return c.items[id];
    });
    if (!item) return { id: "", props: {} };
    const { sizeLabel: _l, token: _t, ...inputs } = item;
    void _l;
    void _t;
    return { id, props: { ...item }, inputs };
  },
  async delete(id: string, props: Props) {
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
  replaceKey?: pulumi.Input<string>;
  secretInput?: pulumi.Input<string>;
  dbr?: boolean;
  failInit?: boolean;
  failPlain?: boolean;
  blockUntil?: string;
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
