/**
 * Shared set-up of the harness's self-tests: a fresh cloud file and stack per test, and
 * readers of the cloud's call log.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { TestStack } from "../../harness/index";
import { newCloud, readCloud } from "./thingProvider";
import { StackOptions, UpResult, RefreshResult } from "../../harness/types";

/** The engine the stacks run on: the harness's model, or the real CLI (`CLOUDDB_ENGINE=cli`, harness/stack.ts). */
export const ENGINE: "model" | "cli" = process.env.CLOUDDB_ENGINE === "cli" ? "cli" : "model";

/** What a self-test works with. */
export interface ThingWorld {
  dir: string;
  cloudFile: string;
  stack: TestStack;
  /** Every provider call so far, in call order. */
  log(): string[];
  /** The creates, updates and deletes so far. */
  writes(): string[];
  /** Index of the first log line starting with `prefix` (-1 if none). */
  indexOf(prefix: string): number;
}

/** Registers beforeEach/afterEach that give each test a fresh world; read it through the returned getter. */
export function useThingWorld(opts: StackOptions = {}): () => ThingWorld {
  let world: ThingWorld | undefined;
  beforeEach(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-"));
    const cloudFile = path.join(dir, "cloud.json");
    newCloud(cloudFile);
    const stack = await TestStack.create({ config: { "test:greeting": "hello" }, ...opts });
    const log = (): string[] => readCloud(cloudFile).log;
    world = {
      dir,
      cloudFile,
      stack,
      log,
      writes: () => log().filter((l) => /^(create|update|delete):/.test(l)),
      indexOf: (prefix) => log().findIndex((l) => l.startsWith(prefix)),
    };
  });
  afterEach(async () => {
    if (!world) return;
    await world.stack.close();
    fs.rmSync(world.dir, { recursive: true, force: true });
    world = undefined;
  });
  return () => {
    if (!world) throw new Error("no world outside a test");
    return world;
  };
}

/** The steps of a result as `op:name`, in completion order. */
export function ops(r: UpResult | RefreshResult): string[] {
  return r.steps.map((s) => `${s.op}:${s.name}`);
}
