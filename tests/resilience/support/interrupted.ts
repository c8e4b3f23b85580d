/**
 * An `up` interrupted while its create was under way, as a crash would end it: the API's
 * answers held back, the plugin process killed once the create is journalled and its POST is
 * at the API (the API acts; the journal's entry holds no id), then the API let go until it has
 * carried the create out. Through the real plugin host (`startCloud({ host: "plugin" })`).
 */
import { until, type Program } from "../../../harness";
import { journalEntries, type Cloud } from "../../../harness/cloud";
import type { UpResult } from "../../../harness/types";

/** Runs `program`'s `up` on `cloud`, interrupted as the module says; resolves with that `up`'s result once a POST matching `pathRe` is at the API. */
export async function interruptedUp(cloud: Cloud, program: Program, pathRe: RegExp): Promise<UpResult> {
  await cloud.clearRequests();
  await cloud.controls.latency(700);
  const running = cloud.stack.up(program);
  await until("the journalled create", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
  await new Promise((r) => setTimeout(r, 300)); // the POST is at the API, its answer held back
  await cloud.stack.plugin.kill();
  const result = await running;
  await cloud.controls.latency(0);
  await until("the create to be carried out", async () =>
    (await cloud.requests()).some((r) => r.method === "POST" && pathRe.test(r.path)) ? true : undefined,
  );
  return result;
}
