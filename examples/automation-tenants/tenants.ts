/**
 * A database per tenant, one stack each, with Pulumi's Automation API: every tenant is a
 * stack `<tenant>` of the project `clouddb-tenants`, whose inline program makes one
 * `clouddb.Service`. Up to `parallel` stacks run at once, each its own `pulumi up` (so its
 * own provider process), all with one API key: the providers share the key's rate limit
 * (README, "Many stacks, one API key"). Progress is reported as events a person can
 * follow (see {@link Progress}); index.ts prints them.
 */
import * as fs from "fs";
import * as path from "path";
import * as auto from "@pulumi/pulumi/automation";
import * as clouddb from "pulumi-clouddb";

/** The project every tenant's stack belongs to. */
export const PROJECT = "clouddb-tenants";

/** Where the API is, and the key: what every tenant's stack is configured with. */
export interface ApiTarget {
  apiUrl: string;
  apiKey: string;
  projectId: string;
}

/** What happened to a tenant, as {@link provisionTenants} and {@link destroyTenants} report it. */
export type Progress =
  | { kind: "waiting"; tenant: string }
  | { kind: "started"; tenant: string; action: "up" | "destroy" }
  | { kind: "step"; tenant: string; op: string; resource: string; done: boolean; ms?: number }
  | { kind: "failed-step"; tenant: string; resource: string; message: string }
  | { kind: "finished"; tenant: string; action: "up" | "destroy"; ok: boolean; ms: number; message?: string };

/** Options of {@link provisionTenants} and {@link destroyTenants}. */
export interface FleetOptions {
  /** The tenants: each one's stack name and the prefix of its database's name (letters, digits, `-`). */
  tenants: readonly string[];
  /** The API every stack uses. */
  api: ApiTarget;
  /** How many stacks run at once. @default 4 */
  parallel?: number;
  /**
   * The folder for the stacks' state (a file backend, `<stateDir>/state`) and their work
   * folders (`<stateDir>/work/<tenant>`), which must resolve `pulumi-clouddb` from a
   * `node_modules` at or above them. @default `.clouddb/tenants` at the repository root
   */
  stateDir?: string;
  /** The passphrase of the stacks' secrets. @default "clouddb-local" */
  passphrase?: string;
  /** The folder holding `bin/pulumi`, when the CLI to use is not the one on PATH. */
  pulumiRoot?: string;
  /** Variables for the CLI's environment (e.g. a PATH with its language hosts first). */
  env?: Record<string, string>;
  /** Told of every step of every tenant. @default nothing */
  onProgress?: (event: Progress) => void;
}

/** A tenant's result. */
export interface TenantResult {
  tenant: string;
  ok: boolean;
  /** The `pulumi up` or `destroy`, ms. */
  ms: number;
  /** The stack's outputs after `up` (`serviceId`, `host`, `port`). */
  outputs?: Record<string, unknown>;
  /** Why it failed. */
  message?: string;
}

/** The inline program of `tenant`: one service, and how to reach it. */
function tenantProgram(tenant: string): auto.PulumiFn {
  return async () => {
    const db = new clouddb.Service("db", { name: `${tenant}-db`, cpuMillis: 500, memoryGbs: 2 }, { protect: false });
    return { serviceId: db.serviceId, host: db.host, port: db.port };
  };
}

/** The default state folder: `.clouddb/tenants` at the repository root (git-ignored). */
export function defaultStateDir(): string {
  return path.resolve(__dirname, "..", "..", ".clouddb", "tenants");
}

/** The stack of `tenant`, created when missing, configured for `api`. */
async function tenantStack(tenant: string, opts: FleetOptions): Promise<auto.Stack> {
  const stateDir = path.resolve(opts.stateDir ?? defaultStateDir());
  const workDir = path.join(stateDir, "work", tenant);
  fs.mkdirSync(workDir, { recursive: true });
  fs.mkdirSync(path.join(stateDir, "state"), { recursive: true });
  const backend = `file://${path.join(stateDir, "state")}`;
  const pulumiCommand =
    opts.pulumiRoot === undefined ? undefined : await auto.PulumiCommand.get({ root: opts.pulumiRoot, skipVersionCheck: true });
  const stack = await auto.LocalWorkspace.createOrSelectStack(
    { stackName: tenant, projectName: PROJECT, program: tenantProgram(tenant) },
    {
      workDir,
      ...(pulumiCommand === undefined ? {} : { pulumiCommand }),
      envVars: {
        ...opts.env,
        PULUMI_BACKEND_URL: backend,
        PULUMI_CONFIG_PASSPHRASE: opts.passphrase ?? "clouddb-local",
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
      projectSettings: { name: PROJECT, runtime: "nodejs", backend: { url: backend } },
    },
  );
  await stack.setAllConfig({
    "clouddb:apiUrl": { value: opts.api.apiUrl },
    "clouddb:apiKey": { value: opts.api.apiKey, secret: true },
    "clouddb:projectId": { value: opts.api.projectId },
  });
  return stack;
}

/** The resource an event is about, as a person reads it: `db (clouddb:Service)` (a dynamic provider's type without its `pulumi-nodejs:dynamic/`). */
function resourceOf(urn: string, type: string): string {
  const name = urn.split("::").pop() ?? urn;
  return type === "" ? name : `${name} (${type.replace(/^pulumi-nodejs:dynamic\//, "")})`;
}

/** Turns the engine's events of `tenant` into {@link Progress}. */
function follower(tenant: string, say: (event: Progress) => void): (event: auto.EngineEvent) => void {
  const startedAt = new Map<string, number>();
  return (event) => {
    const pre = event.resourcePreEvent?.metadata;
    const post = event.resOutputsEvent?.metadata;
    const failed = event.resOpFailedEvent?.metadata;
    const meta = pre ?? post ?? failed;
    if (meta === undefined || meta.type === "pulumi:pulumi:Stack" || meta.type.startsWith("pulumi:providers:") || meta.op === "same") {
      if (event.diagnosticEvent?.severity === "error" && event.diagnosticEvent.urn) {
        const d = event.diagnosticEvent;
        say({ kind: "failed-step", tenant, resource: resourceOf(d.urn ?? "", ""), message: d.message.trim() });
      }
      return;
    }
    const resource = resourceOf(meta.urn, meta.type);
    if (pre !== undefined) {
      startedAt.set(meta.urn, Date.now());
      say({ kind: "step", tenant, op: meta.op, resource, done: false });
    } else if (post !== undefined) {
      const began = startedAt.get(meta.urn);
      say({ kind: "step", tenant, op: meta.op, resource, done: true, ...(began === undefined ? {} : { ms: Date.now() - began }) });
    }
  };
}

/** The first lines of an error of the CLI that say what failed (the CLI's own output trimmed). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").map((l) => l.trim());
  const diagnostics = lines.filter((l) => /^error:/.test(l) && !/update failed/.test(l));
  return (diagnostics.length > 0 ? diagnostics : lines.filter((l) => l !== "")).slice(0, 3).join(" ");
}

/** Runs `work` for every tenant, at most `parallel` at once, in the order given; the results in the same order. */
async function eachTenant(opts: FleetOptions, work: (tenant: string) => Promise<TenantResult>): Promise<TenantResult[]> {
  const say = opts.onProgress ?? (() => undefined);
  const results: TenantResult[] = new Array<TenantResult>(opts.tenants.length);
  for (const tenant of opts.tenants) say({ kind: "waiting", tenant });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < opts.tenants.length) {
      const i = next++;
      results[i] = await work(opts.tenants[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.parallel ?? 4, opts.tenants.length)) }, worker));
  return results;
}

/** Checks tenant names: each a stack name and a prefix of a service name. */
function checkTenants(tenants: readonly string[]): void {
  const bad = tenants.filter((t) => !/^[a-z][a-z0-9-]{0,40}$/.test(t));
  if (bad.length > 0) throw new Error(`Tenant names are lower-case letters, digits and '-', starting with a letter: not ${bad.join(", ")}`);
  if (new Set(tenants).size !== tenants.length) throw new Error("Tenant names must differ");
}

/**
 * `pulumi up` of every tenant's stack (each makes its database, or leaves it as it is), at
 * most `parallel` at once. Never rejects for a tenant's failure: each result says whether it
 * succeeded and why not.
 */
export async function provisionTenants(opts: FleetOptions): Promise<TenantResult[]> {
  checkTenants(opts.tenants);
  const say = opts.onProgress ?? (() => undefined);
  return eachTenant(opts, async (tenant) => {
    const started = Date.now();
    say({ kind: "started", tenant, action: "up" });
    try {
      const stack = await tenantStack(tenant, opts);
      const up = await stack.up({ onEvent: follower(tenant, say), color: "never" });
      const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, o]) => [k, o.value as unknown]));
      const ms = Date.now() - started;
      say({ kind: "finished", tenant, action: "up", ok: true, ms });
      return { tenant, ok: true, ms, outputs };
    } catch (e) {
      const ms = Date.now() - started;
      const message = reasonOf(e);
      say({ kind: "finished", tenant, action: "up", ok: false, ms, message });
      return { tenant, ok: false, ms, message };
    }
  });
}

/** `pulumi destroy` of every tenant's stack, then its removal, at most `parallel` at once. Never rejects for a tenant's failure. */
export async function destroyTenants(opts: FleetOptions): Promise<TenantResult[]> {
  checkTenants(opts.tenants);
  const say = opts.onProgress ?? (() => undefined);
  return eachTenant(opts, async (tenant) => {
    const started = Date.now();
    say({ kind: "started", tenant, action: "destroy" });
    try {
      const stack = await tenantStack(tenant, opts);
      await stack.destroy({ onEvent: follower(tenant, say), color: "never" });
      await stack.workspace.removeStack(tenant);
      const ms = Date.now() - started;
      say({ kind: "finished", tenant, action: "destroy", ok: true, ms });
      return { tenant, ok: true, ms };
    } catch (e) {
      const ms = Date.now() - started;
      const message = reasonOf(e);
      say({ kind: "finished", tenant, action: "destroy", ok: false, ms, message });
      return { tenant, ok: false, ms, message };
    }
  });
}

/** `count` tenant names: `tenant-01`, `tenant-02`, ... */
export function tenantNames(count: number): string[] {
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => `tenant-${String(i + 1).padStart(width, "0")}`);
}

/**
 * A line a person reads for `event`, with the time since `t0` and how many tenants are done:
 * `  12.4s  tenant-03  + db (clouddb:Service) created in 10.9s`.
 */
export function progressLine(event: Progress, t0: number, done: number, total: number): string {
  const at = `${((Date.now() - t0) / 1000).toFixed(1)}s`.padStart(7);
  const who = event.tenant.padEnd(12);
  const secs = (ms: number | undefined): string => (ms === undefined ? "" : ` in ${(ms / 1000).toFixed(1)}s`);
  const sign: Record<string, string> = {
    create: "+",
    update: "~",
    delete: "-",
    replace: "+-",
    "create-replacement": "+",
    "delete-replaced": "-",
  };
  switch (event.kind) {
    case "waiting":
      return `${at}  ${who}  waiting for a free slot`;
    case "started":
      return `${at}  ${who}  pulumi ${event.action}`;
    case "step": {
      const verb = event.op.replace(/e?$/, "") + (event.done ? "ed" : "ing");
      return `${at}  ${who}  ${sign[event.op] ?? "*"} ${event.resource} ${verb}${event.done ? secs(event.ms) : "..."}`;
    }
    case "failed-step":
      return `${at}  ${who}  ! ${event.resource}: ${event.message}`;
    case "finished":
      return (
        `${at}  ${who}  ${event.ok ? "done" : "FAILED"} (pulumi ${event.action}${secs(event.ms)})${event.message ? `: ${event.message}` : ""}` +
        `   [${done}/${total} done]`
      );
  }
}
