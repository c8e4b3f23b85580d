/**
 * What declaring N services costs a TypeScript program, with the dynamic SDK (`sdk/`, as
 * built in `dist/sdk`) and with the native plugin's generated SDK (`sdk-native/nodejs`,
 * compiled: harness/nativeSdk.ts): the program's CPU from its first `new Service` until the
 * engine (Pulumi's mocks, so that the engine's work is not the program's) has answered the
 * last, in a process of its own per measurement, run as Pulumi runs a TypeScript program
 * (ts-node, whose stack traces are source-mapped). Prints the least of `ROUNDS` measurements
 * of each SDK, taken in turn, and the ratio native / dynamic.
 *
 * `npm run build && npx ts-node --transpile-only bench/sdkConstruction.ts [N]` (N = 300).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { compiledNativeSdk } from "../harness/nativeSdk";
import { REPO_ROOT } from "../harness/stack";

/** Measurements of each SDK; the least is reported. */
const ROUNDS = 5;
type Sdk = "dynamic" | "native";

/** The program (run in a child process): declares `n` services with `sdk` and prints the CPU it took, ms. */
async function program(sdk: Sdk, n: number, nativeDir: string): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs as Record<string, unknown> }),
      call: (a) => a.inputs as Record<string, unknown>,
    },
    "bench",
    "bench",
    false,
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require(sdk === "native" ? nativeDir : path.join(REPO_ROOT, "dist", "sdk")) as {
    Service: new (name: string, args: { name: string }) => pulumi.CustomResource;
  };
  const before = process.cpuUsage();
  const made: pulumi.CustomResource[] = [];
  for (let i = 0; i < n; i++) made.push(new lib.Service(`svc-${i}`, { name: `bench-${i}` }));
  await Promise.all(made.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  const used = process.cpuUsage(before);
  process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000 })}\n`);
}

/** One measurement in a process of its own. */
function measureOnce(sdk: Sdk, n: number, nativeDir: string): number {
  const out = execFileSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", __filename, "--program", sdk, String(n), nativeDir],
    { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: "" } },
  );
  return (JSON.parse(out.trim().split("\n").pop() ?? "{}") as { cpuMs: number }).cpuMs;
}

function main(): void {
  const n = Number(process.argv[2] ?? 300);
  const nativeDir = compiledNativeSdk();
  const best: Record<Sdk, number> = { dynamic: Infinity, native: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    for (const sdk of ["dynamic", "native"] as const) best[sdk] = Math.min(best[sdk], measureOnce(sdk, n, nativeDir));
  }
  process.stdout.write(
    `N = ${n}: program CPU declaring the services, least of ${ROUNDS}: dynamic ${best.dynamic.toFixed(0)} ms, ` +
      `native ${best.native.toFixed(0)} ms, native / dynamic ${(best.native / best.dynamic).toFixed(2)} ×\n`,
  );
}

if (process.argv[2] === "--program") {
  program(process.argv[3] as Sdk, Number(process.argv[4]), process.argv[5]).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
} else {
  main();
}
