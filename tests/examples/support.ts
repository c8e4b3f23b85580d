/**
 * Shared by the example suites: a test cloud whose stack has the project name of the
 * example's own `Pulumi.yaml` (so its `new pulumi.Config()` reads `<project>:<key>`, as
 * under the CLI), step summaries, and the checks every example gets.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { REPO_ROOT, type Program, type UpResult } from "../../harness";
import { startCloud, writes, type Cloud } from "../../harness/cloud";
export { ops } from "../../harness/cloud";

/** An example's Pulumi project, and helpers bound to it. */
export interface Example {
  /** The example's directory. */
  readonly dir: string;
  /** The project name in the example's `Pulumi.yaml`. */
  readonly project: string;
  /** The stack config key of the program's own config value `key` (`<project>:<key>`). */
  cfg(key: string): string;
  /** Starts the emulator and a stack of the example's project; `config` holds the program's own keys, unprefixed. */
  start(config?: Record<string, string>): Promise<Cloud>;
}

/** `examples/<name>`, whose stack has the project name of its `Pulumi.yaml`, as under the CLI. */
export function example(name: string): Example {
  const dir = path.join(REPO_ROOT, "examples", name);
  const project = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))?.[1];
  if (project === undefined) throw new Error(`examples/${name}/Pulumi.yaml names no project`);
  const cfg = (key: string): string => `${project}:${key}`;
  return {
    dir,
    project,
    cfg,
    start: (config = {}) =>
      startCloud({ host: "plugin", project, config: Object.fromEntries(Object.entries(config).map(([k, v]) => [cfg(k), v])) }),
  };
}

/**
 * `program` with some arguments of the resource named `resourceName` replaced, through a
 * stack transformation: how a test changes one argument of an example without copying it.
 */
export function withArgs(program: Program, resourceName: string, args: Record<string, unknown>): Program {
  return () => {
    pulumi.runtime.registerStackTransformation((a) =>
      a.name === resourceName ? { props: { ...a.props, ...args }, opts: a.opts } : undefined,
    );
    return program();
  };
}

/** Expects stack output `name` of `r` to be a non-empty secret string kept out of the plaintext state; returns it. */
export function expectSecretOutput(cloud: Cloud, r: UpResult, name: string): string {
  const value = r.outputs[name];
  expect(typeof value).toBe("string");
  expect(String(value).length).toBeGreaterThanOrEqual(8);
  expect(r.secretOutputNames).toContain(name);
  expect(cloud.stack.plaintextState()).not.toContain(String(value));
  return String(value);
}

/** Runs a preview and expects it to have reported no error and sent no write request. */
export async function previewWithoutWrites(cloud: Cloud, program: Program): Promise<UpResult> {
  await cloud.clearRequests();
  const r = await cloud.stack.preview(program);
  expect(r.errors).toEqual([]);
  expect(r.checkFailures).toEqual([]);
  expect(writes(await cloud.requests())).toEqual([]);
  return r;
}

/** Runs `up` on an unchanged program and expects every resource `same` and no write request. */
export async function expectNoDrift(cloud: Cloud, program: Program): Promise<UpResult> {
  const names = cloud.stack.resources().map((r) => r.name);
  await cloud.clearRequests();
  const r = await cloud.stack.up(program);
  expect(r.errors).toEqual([]);
  expect(r.steps.filter((s) => s.op !== "same" && s.op !== "read").map((s) => `${s.op} ${s.name}`)).toEqual([]);
  expect(
    r.steps
      .filter((s) => s.op === "same")
      .map((s) => s.name)
      .sort(),
  ).toEqual([...names].sort());
  expect(writes(await cloud.requests())).toEqual([]);
  return r;
}

/** The ids of the services and VPCs the emulator holds. */
export async function inventory(cloud: Cloud): Promise<{ services: string[]; vpcs: string[] }> {
  const services = (await cloud.api.perform("listServices")).items.map((s) => s.service_id).sort();
  const vpcs = (await cloud.api.perform("listVpcs")).items.map((v) => v.id).sort();
  return { services, vpcs };
}
