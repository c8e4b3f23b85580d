/**
 * `npm run bench:turns -- --n 300 --command refresh [--repeats 5] [--hosts floor-yaml,native-yaml] [--plugin-before <tarball>] [--env NAME=value,...]`:
 * one command of large stacks, many times, the stacks taking turns (issue 44: a change to
 * what a short command costs, before and after, in one run). Each host gets a stack of N
 * services (bench/scalePrograms.ts, against one emulator with instant transitions and no
 * rate limit) that runs `up` once; then the command runs `--repeats` times on each stack in
 * turn (each `destroy` after the first on the stack made again by an `up`, not measured),
 * measured as `npm run bench:scale` measures it (bench/scale.ts `measured`: wall, and the
 * engine's, the plugin's and the program's CPU). With `--plugin-before`, each native host
 * gets a second stack, `<host> before`, with that plugin tarball installed instead (another
 * commit's, `npm run plugin:pack` there, or the one the scale bench cached under
 * `.tools/native-test-cache/plugin/`). With `--env`, every host, the floors too, gets a second
 * stack, `<host> with <env>`, whose commands run with those variables (an engine setting such as
 * `PULUMI_PARALLEL_DIFF=true`, measured beside the same stacks without it). Prints the medians,
 * each against its floor (a stack with the variables against the floor's with them), the
 * "before" stacks against the others and the stacks with the variables against those without,
 * and writes the raw figures to
 * `bench/results/turns-<time>.json` (docs/performance/large-stacks.md, "Where a refresh's time goes").
 */
import { ARGS, COMMANDS, measured, type Command, type Figures } from "./scale";
import { median } from "./firstCall";
import { ratio, secs } from "./report";
import { floorOf, scaleStack, type Host } from "./scalePrograms";
import {
  flagReader,
  hostsWithFloors,
  onNode24,
  repeatsFlag,
  runProgram,
  sizesFlag,
  tableHead,
  withScaleEmulator,
  writeResults,
} from "./scaleRun";
import { VERSION } from "../tests/native/cli/support";

/** What the bench is asked to run. */
export interface TurnsOptions {
  n: number;
  command: Command;
  repeats: number;
  hosts: Host[];
  /** The tarball of the plugin "before", or undefined for none. */
  pluginBefore?: string;
  /** The variables of the stacks "with", or undefined for none. */
  env?: Record<string, string>;
}

/** One stack's figures: its host, whether it runs the plugin before, the variables it runs with, each repeat's figures. */
export interface TurnsRun {
  host: Host;
  before: boolean;
  env?: Record<string, string>;
  figures: Figures[];
}

/** A stack's name in the table: its host, " before" and " with <variables>". */
export function stackLabel(run: Pick<TurnsRun, "host" | "before" | "env">): string {
  const env = run.env === undefined ? "" : ` with ${envText(run.env)}`;
  return `${run.host}${run.before ? " before" : ""}${env}`;
}

const envText = (env: Record<string, string>): string =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");

/** `--env A=1,B=2`: each a variable's name (letters, digits, `_`), `=` and its value (no comma). */
export function envFlag(text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  const env: Record<string, string> = {};
  for (const pair of text.split(",")) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (m === null) throw new Error(`--env: ${JSON.stringify(pair)} is not NAME=value (a variable's name, then = and its value)`);
    env[m[1]] = m[2];
  }
  return env;
}

/** `--n 300 --command refresh --repeats 5 --hosts floor-yaml,native-yaml --plugin-before <tarball> --env NAME=value`. */
export function parseTurns(argv: string[]): TurnsOptions {
  const value = flagReader(argv);
  const ns = sizesFlag(value, "300");
  if (ns.length !== 1) throw new Error(`--n: ${ns.join(",")} is more than one size (this bench runs one)`);
  const command = (value("--command") ?? "refresh") as Command;
  if (!COMMANDS.includes(command)) throw new Error(`--command: ${command} is not one of ${COMMANDS.join(", ")}`);
  return {
    n: ns[0],
    command,
    repeats: repeatsFlag(value, 5),
    hosts: hostsWithFloors(value),
    pluginBefore: value("--plugin-before"),
    env: envFlag(value("--env")),
  };
}

/** The stacks' runs: `up` once each, then the command `repeats` times, the stacks taking turns. */
export async function runTurns(opts: TurnsOptions): Promise<TurnsRun[]> {
  return withScaleEmulator(opts.hosts, async (p, emu) => {
    const stacks: { run: TurnsRun; stack: Awaited<ReturnType<typeof scaleStack>> }[] = [];
    try {
      const variants: TurnsRun[] = [];
      for (const host of opts.hosts) {
        variants.push({ host, before: false, figures: [] });
        if (opts.pluginBefore !== undefined && host.startsWith("native")) variants.push({ host, before: true, figures: [] });
        if (opts.env !== undefined) variants.push({ host, before: false, env: opts.env, figures: [] });
      }
      for (const run of variants) {
        const stack = await scaleStack(run.host, opts.n, p, emu, { env: run.env });
        stacks.push({ run, stack });
        if (run.before)
          await stack.project.expect(["plugin", "install", "resource", "clouddb", VERSION, "--file", opts.pluginBefore!, "--reinstall"]);
        await measured(stack, ARGS.up);
      }
      for (let r = 0; r < opts.repeats; r++)
        for (const { run, stack } of stacks) {
          // A destroy leaves nothing to destroy: each one after the first destroys the stack made again, unmeasured.
          if (opts.command === "destroy" && r > 0) await measured(stack, ARGS.up);
          const f = await measured(stack, ARGS[opts.command]);
          run.figures.push(f);
          process.stderr.write(
            `  ${stackLabel(run)}: wall ${secs(f.wallMs)}, engine ${secs(f.engineCpuMs)}, plugin ${secs(f.pluginCpuMs)}\n`,
          );
        }
      return stacks.map((s) => s.run);
    } finally {
      for (const { stack } of stacks) await stack.remove();
    }
  });
}

/**
 * The Markdown table: per stack, the medians, with the ratio to its floor (a stack "with"
 * variables to the floor's stack with them), and its counterpart's: after ÷ before on a stack
 * that has a "before", with ÷ without on a stack "with" variables.
 */
export function turnsTable(runs: TurnsRun[]): string {
  const med = (run: TurnsRun | undefined, of: (f: Figures) => number): number | undefined =>
    run === undefined ? undefined : median(run.figures.map(of));
  const figures: [string, (f: Figures) => number][] = [
    ["wall", (f) => f.wallMs],
    ["engine CPU", (f) => f.engineCpuMs],
    ["plugin CPU", (f) => f.pluginCpuMs],
    ["program CPU", (f) => f.programCpuMs],
  ];
  const find = (host: Host, before: boolean, env: Record<string, string> | undefined): TurnsRun | undefined =>
    runs.find((r) => r.host === host && r.before === before && (r.env === undefined) === (env === undefined));
  // A stack "with" variables is set against its host's plain stack; a plain stack against its "before"; a "before" against none.
  const counterpartOf = (run: TurnsRun): TurnsRun | undefined => {
    if (run.env !== undefined) return find(run.host, false, undefined);
    return run.before ? undefined : find(run.host, true, undefined);
  };
  const lines = ["| stack | figure | median | ÷ its floor | after ÷ before, with ÷ without |", "|---|---|---|---|---|"];
  for (const run of runs)
    for (const [label, of] of figures) {
      const v = med(run, of)!;
      const floor = run.host === floorOf(run.host) ? undefined : med(find(floorOf(run.host), false, run.env), of);
      const counterpart = counterpartOf(run);
      // No ratio to nothing (a floor's own row, a stack without a counterpart) or to 0 (a plugin's CPU under a tick).
      const cell = (x: number | undefined): string => (x === undefined || x === 0 ? "" : `${ratio(v, x)} ×`);
      lines.push(`| ${stackLabel(run)} | ${label} | ${secs(v)} | ${cell(floor)} | ${cell(med(counterpart, of))} |`);
    }
  return lines.join("\n");
}

async function main(): Promise<void> {
  onNode24(__filename);
  const opts = parseTurns(process.argv.slice(2));
  const started = new Date();
  const runs = await runTurns(opts);
  const head = tableHead(started, `, ${opts.command} of N = ${opts.n}, medians of ${opts.repeats}`);
  writeResults("turns", started, head, turnsTable(runs), opts, runs);
}

if (require.main === module) runProgram("bench:turns", main);
