/**
 * `npm run bench:turns -- --n 300 --command refresh [--repeats 5] [--hosts floor-yaml,native-yaml] [--plugin-before <tarball>]`:
 * one command of large stacks, many times, the stacks taking turns (issue 44: a change to
 * what a short command costs, before and after, in one run). Each host gets a stack of N
 * services (bench/scalePrograms.ts, against one emulator with instant transitions and no
 * rate limit) that runs `up` once; then the command runs `--repeats` times on each stack in
 * turn, measured as `npm run bench:scale` measures it (bench/scale.ts `measured`: wall, and
 * the engine's, the plugin's and the program's CPU). With `--plugin-before`, each native host
 * gets a second stack, `<host> before`, with that plugin tarball installed instead (another
 * commit's, `npm run plugin:pack` there, or the one the scale bench cached under
 * `.tools/native-test-cache/plugin/`). Prints the medians, each against its floor and the
 * "before" stacks against the others, and writes the raw figures to
 * `bench/results/turns-<time>.json` (CONTRIBUTING.md, "Where a refresh's time goes").
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
}

/** One stack's figures: its host, whether it runs the plugin before, each repeat's figures. */
export interface TurnsRun {
  host: Host;
  before: boolean;
  figures: Figures[];
}

/** `--n 300 --command refresh --repeats 5 --hosts floor-yaml,native-yaml --plugin-before <tarball>`. */
export function parseTurns(argv: string[]): TurnsOptions {
  const value = flagReader(argv);
  const ns = sizesFlag(value, "300");
  if (ns.length !== 1) throw new Error(`--n: ${ns.join(",")} is more than one size (this bench runs one)`);
  const command = (value("--command") ?? "refresh") as Command;
  if (!COMMANDS.includes(command)) throw new Error(`--command: ${command} is not one of ${COMMANDS.join(", ")}`);
  return { n: ns[0], command, repeats: repeatsFlag(value, 5), hosts: hostsWithFloors(value), pluginBefore: value("--plugin-before") };
}

/** The stacks' runs: `up` once each, then the command `repeats` times, the stacks taking turns. */
export async function runTurns(opts: TurnsOptions): Promise<TurnsRun[]> {
  return withScaleEmulator(opts.hosts, async (p, emu) => {
    const stacks: { run: TurnsRun; stack: Awaited<ReturnType<typeof scaleStack>> }[] = [];
    try {
      for (const host of opts.hosts)
        for (const before of opts.pluginBefore !== undefined && host.startsWith("native") ? [false, true] : [false]) {
          const stack = await scaleStack(host, opts.n, p, emu);
          stacks.push({ run: { host, before, figures: [] }, stack });
          if (before)
            await stack.project.expect(["plugin", "install", "resource", "clouddb", VERSION, "--file", opts.pluginBefore!, "--reinstall"]);
          await measured(stack, ARGS.up);
        }
      for (let r = 0; r < opts.repeats; r++)
        for (const { run, stack } of stacks) {
          const f = await measured(stack, ARGS[opts.command]);
          run.figures.push(f);
          process.stderr.write(
            `  ${run.host}${run.before ? " before" : ""}: wall ${secs(f.wallMs)}, engine ${secs(f.engineCpuMs)}, plugin ${secs(f.pluginCpuMs)}\n`,
          );
        }
      return stacks.map((s) => s.run);
    } finally {
      for (const { stack } of stacks) await stack.remove();
    }
  });
}

/** The Markdown table: per stack, the medians, with the ratio to its floor and (a "before" stack's counterpart) after ÷ before. */
export function turnsTable(runs: TurnsRun[]): string {
  const med = (run: TurnsRun | undefined, of: (f: Figures) => number): number | undefined =>
    run === undefined ? undefined : median(run.figures.map(of));
  const figures: [string, (f: Figures) => number][] = [
    ["wall", (f) => f.wallMs],
    ["engine CPU", (f) => f.engineCpuMs],
    ["plugin CPU", (f) => f.pluginCpuMs],
    ["program CPU", (f) => f.programCpuMs],
  ];
  const lines = ["| stack | figure | median | ÷ its floor | after ÷ before |", "|---|---|---|---|---|"];
  for (const run of runs)
    for (const [label, of] of figures) {
      const v = med(run, of)!;
      const floor = med(
        runs.find((r) => r.host === floorOf(run.host) && !r.before),
        of,
      );
      const before = run.before
        ? undefined
        : med(
            runs.find((r) => r.host === run.host && r.before),
            of,
          );
      // No ratio to nothing (a floor's own row, a stack without a "before") or to 0 (a plugin's CPU under a tick).
      const cell = (x: number | undefined): string => (x === undefined || x === 0 ? "" : `${ratio(v, x)} ×`);
      const ofFloor = run.host === floorOf(run.host) ? undefined : floor;
      lines.push(`| ${run.host}${run.before ? " before" : ""} | ${label} | ${secs(v)} | ${cell(ofFloor)} | ${cell(before)} |`);
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
