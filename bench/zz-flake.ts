process.env.CLOUDDB_ENGINE = "cli";
import * as clouddb from "pulumi-clouddb";
import { startCloud } from "../harness/cloud";

async function main() {
  const n = Number(process.argv[2] ?? 10);
  const cloud = await startCloud();
  const vpc = () => void new clouddb.Vpc("net", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const t0 = Date.now();
    const ok = await cloud.stack.up(vpc);
    if (ok.errors.length) console.log("first up errors", JSON.stringify(ok.errors).slice(0, 300));
    cloud.stack.setConfig("clouddb:apiKey", "not-the-emulators-key", { secret: true });
    const denied = await cloud.stack.up(() => void new clouddb.Vpc("net", { name: "renamed", cidr: "10.0.0.0/16", regionCode: "us-east-1" }));
    const named = denied.errors.filter((e) => e.name === "net").length;
    if (named !== 1) {
      bad++;
      console.log(`run ${i}: BAD errors=${JSON.stringify(denied.errors).slice(0, 600)} steps=${JSON.stringify(denied.steps)} diags=${denied.diagnostics.length}`);
    }
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.pat, { secret: true });
    const back = await cloud.stack.up(vpc);
    if (back.errors.length) console.log("back errors", JSON.stringify(back.errors).slice(0, 300));
    console.log(`run ${i} ${Date.now() - t0} ms named=${named}`);
  }
  console.log(`bad ${bad}/${n}`);
  await cloud.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
