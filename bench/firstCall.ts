/**
 * The first call a fresh provider process serves: a Check of a Service, which loads the
 * provider's module. Started as the engine starts a plugin (the harness's PluginHost), in
 * the directory of the tree whose package it loads.
 */
import * as fs from "fs";
import { PluginHost } from "../harness";
import { providerText } from "../sdk/trampoline";

/** How a first call is made. */
export interface FirstCall {
  /** The plugin's working directory: its `pulumi-clouddb` is the one loaded. */
  cwd: string;
  /** Environment of the plugin process (PATH picks its `node`). */
  env?: Record<string, string>;
  /** How the process ends: `close` as the engine ends it (SIGINT), `kill` with SIGKILL. */
  end?: "close" | "kill";
}

/** ms from the Check's request to its answer in a fresh plugin process; the process's `node` binary beside it. */
export async function firstCall(how: FirstCall): Promise<{ ms: number; exe: string | undefined }> {
  const plugin = new PluginHost({ project: "bench", cwd: how.cwd, env: how.env ?? {} });
  try {
    await plugin.start();
    await plugin.configure({ "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k", "clouddb:projectId": "p" }, []);
    const urn = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/clouddb:Service::db";
    const started = process.hrtime.bigint();
    await plugin.check(urn, {}, { __provider: providerText("service"), name: "lean" });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return { ms, exe: exeOf(plugin.pid) };
  } finally {
    await (how.end === "close" ? plugin.close() : plugin.kill());
  }
}

/** The executable of process `pid`, when /proc tells. */
function exeOf(pid: number | undefined): string | undefined {
  if (pid === undefined) return undefined;
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** The median of `xs`. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
