import { measureFleets, earliestMs } from "./fleet";
import { thisTree } from "./trees";
const keep = setInterval(() => undefined, 60_000);
const ks = (process.env.KS ?? "20").split(",").map(Number);
void measureFleets(
  [thisTree],
  ks,
  (w) => process.stderr.write(w + "\n"),
  process.env.RA === "off" ? [false] : process.env.RA === "on" ? [true] : [false, true],
)
  .then((runs) => {
    for (const r of runs.get(thisTree)!) {
      const share = r.limited / (r.limited + r.accepted);
      const spread = Math.max(...r.stackWallsMs) / Math.min(...r.stackWallsMs);
      console.log(
        `K=${r.k} RA=${r.retryAfter} 429=${(share * 100).toFixed(1)}% (${r.limited}/${r.limited + r.accepted}) time=${(r.apiWallMs / earliestMs(r.k)).toFixed(2)} (${(r.apiWallMs / 1000).toFixed(1)} s) spread=${spread.toFixed(2)} bytes/svc=${(r.bytes / (r.k * 10) / 1000).toFixed(1)}KB errors=${r.errors.length} ${r.errors[0] ?? ""}`,
      );
      if (process.env.TIMELINE) console.log(JSON.stringify(r.timeline));
    }
  })
  .finally(() => clearInterval(keep));
