/**
 * What declaring N services costs a TypeScript program, with the dynamic SDK (`sdk/`, as
 * built in `dist/sdk`) and with the native plugin's generated SDK (`sdk-native/nodejs`,
 * compiled: harness/nativeSdk.ts): the program's CPU in its N `new Service` (construction),
 * and from the first until Pulumi's mocks have answered the last registration (the whole:
 * the mocks' own work, which the engine does in a deployment, counted in), in a process of
 * its own per measurement, run as Pulumi runs a TypeScript program (ts-node, whose stack
 * traces are source-mapped). Prints the least of `ROUNDS` measurements of each figure of
 * each SDK, taken in turn, and the ratios to the dynamic SDK of the native SDK and of its
 * generated class as it is without the overlay that constructs it untraced (the class's
 * module loaded alone, without the package's index, which wraps it: the SDK before).
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
type Sdk = "dynamic" | "native" | "generated";
const SDKS: readonly Sdk[] = ["dynamic", "native", "generated"];

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
  const entry = { dynamic: path.join(REPO_ROOT, "dist", "sdk"), native: nativeDir, generated: path.join(nativeDir, "service.js") }[sdk];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require(entry) as {
    Service: new (name: string, args: { name: string }) => pulumi.CustomResource;
  };
  const before = process.cpuUsage();
  const made: pulumi.CustomResource[] = [];
  for (let i = 0; i < n; i++) made.push(new lib.Service(`svc-${i}`, { name: `bench-${i}` }));
  const constructed = process.cpuUsage(before);
  await Promise.all(made.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  const whole = process.cpuUsage(before);
  const ms = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
  process.stdout.write(`${JSON.stringify({ construction: ms(constructed), whole: ms(whole) } satisfies Figures)}\n`);
}

/** One program's CPU, ms. */
interface Figures {
  construction: number;
  whole: number;
}

/** One measurement in a process of its own. */
function measureOnce(sdk: Sdk, n: number, nativeDir: string): Figures {
  const out = execFileSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", __filename, "--program", sdk, String(n), nativeDir],
    { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: "" } },
  );
  return JSON.parse(out.trim().split("\n").pop() ?? "{}") as Figures;
}

function main(): void {
  const n = Number(process.argv[2] ?? 300);
  const nativeDir = compiledNativeSdk();
  const best = Object.fromEntries(SDKS.map((sdk) => [sdk, { construction: Infinity, whole: Infinity }])) as Record<Sdk, Figures>;
  for (let r = 0; r < ROUNDS; r++) {
    for (const sdk of SDKS) {
      const f = measureOnce(sdk, n, nativeDir);
      best[sdk] = { construction: Math.min(best[sdk].construction, f.construction), whole: Math.min(best[sdk].whole, f.whole) };
    }
  }
  const line = (figure: keyof Figures): string => {
    const of = (sdk: Sdk): string => `${best[sdk][figure].toFixed(0)} ms (${(best[sdk][figure] / best.dynamic[figure]).toFixed(2)} ×)`;
    return `  ${figure}: dynamic ${best.dynamic[figure].toFixed(0)} ms; native ${of("native")}; the generated class without the overlay (before) ${of("generated")}\n`;
  };
  process.stdout.write(`N = ${n}: program CPU, least of ${ROUNDS}\n${line("construction")}${line("whole")}`);
}

if (process.argv[2] === "--program") {
  program(process.argv[3] as Sdk, Number(process.argv[4]), process.argv[5]).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
} else {
  main();
}
