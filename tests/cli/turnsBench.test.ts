/**
 * `npm run bench:turns`'s pieces, under the real CLI at N = 2: the floor from YAML and the
 * native plugin from YAML, each also with the variables of `--env`, and the native plugin once
 * more with the tarball given as `--plugin-before` (installed over the one the stack came
 * with); each stack `up` once and then refreshed in turns; the figures are read from their
 * processes; the table has each stack's medians, the ratio to its floor (the floor's stack with
 * the same variables), after ÷ before for the stack that has a "before" and with ÷ without for
 * the stacks with the variables.
 */
import { parseTurns, runTurns, stackLabel, turnsTable, type TurnsRun } from "../../bench/commandTurns";
import { median } from "../../bench/firstCall";
import { describeWithCli } from "../../harness/cli/tools";
import { pluginTarball } from "../native/cli/support";

describe("bench:turns' options", () => {
  it("adds each host's floor, and refuses a command or a count it cannot run, naming it", () => {
    expect(parseTurns(["--n", "2", "--hosts", "native-yaml", "--command", "preview"])).toMatchObject({
      n: 2,
      command: "preview",
      repeats: 5,
      hosts: ["floor-yaml", "native-yaml"],
      pluginBefore: undefined,
      env: undefined,
    });
    expect(parseTurns(["--env", "PULUMI_PARALLEL_DIFF=true,A_B=x=y"]).env).toEqual({ PULUMI_PARALLEL_DIFF: "true", A_B: "x=y" });
    expect(() => parseTurns(["--env", "PULUMI_PARALLEL_DIFF"])).toThrow(
      '--env: "PULUMI_PARALLEL_DIFF" is not NAME=value (a variable\'s name, then = and its value)',
    );
    expect(() => parseTurns(["--env", "1X=2"])).toThrow('--env: "1X=2" is not NAME=value');
    expect(() => parseTurns(["--command", "import"])).toThrow("--command: import is not one of up, preview, refresh, destroy");
    expect(() => parseTurns(["--n", "0"])).toThrow("--n: 0 is not a positive whole number");
  });
});

describeWithCli("the turns bench under the real CLI", () => {
  let runs: TurnsRun[];
  beforeAll(async () => {
    runs = await runTurns({
      n: 2,
      command: "refresh",
      repeats: 2,
      hosts: ["floor-yaml", "native-yaml"],
      pluginBefore: await pluginTarball(),
      env: { PULUMI_PARALLEL_DIFF: "true" },
    });
  }, 600_000);

  it("runs the command on each stack in turns, the plugin before and the variables each in stacks of their own, measured from their processes", () => {
    expect(runs.map(stackLabel)).toEqual([
      "floor-yaml",
      "floor-yaml with PULUMI_PARALLEL_DIFF=true",
      "native-yaml",
      "native-yaml before",
      "native-yaml with PULUMI_PARALLEL_DIFF=true",
    ]);
    for (const r of runs) {
      expect(r.figures).toHaveLength(2);
      for (const f of r.figures) {
        expect(f.wallMs).toBeGreaterThan(0);
        expect(f.engineCpuMs).toBeGreaterThan(0);
        // The native plugin is found among the CLI's children (its launcher and Node.js, which live for hundreds of ms;
        // the no-op Go provider of a refresh of 2 may come and go between two samples).
        if (r.host === "native-yaml") expect(f.pluginPeakMb).toBeGreaterThan(0);
      }
    }
  });

  it("tabulates each stack's medians, the ratio to its floor, after ÷ before and with ÷ without", () => {
    const lines = turnsTable(runs).split("\n");
    expect(lines[0]).toBe("| stack | figure | median | ÷ its floor | after ÷ before, with ÷ without |");
    expect(lines.find((l) => l.startsWith("| floor-yaml | wall |"))).toMatch(/^\| floor-yaml \| wall \| [\d.]+ s \| {2}\| {2}\|$/);
    expect(lines.find((l) => l.startsWith("| native-yaml | wall |"))).toMatch(
      /^\| native-yaml \| wall \| [\d.]+ s \| [\d.]+ × \| [\d.]+ × \|$/,
    );
    // The floor's plugin CPU at N = 2 may read 0 (less than a tick): no ratio to it then, rather than an infinite one.
    expect(lines.find((l) => l.startsWith("| native-yaml | plugin CPU |"))).toMatch(
      /^\| native-yaml \| plugin CPU \| [\d.]+ s \| ([\d.]+ ×)? \| [\d.]+ × \|$/,
    );
    expect(lines.find((l) => l.startsWith("| native-yaml before | wall |"))).toMatch(
      /^\| native-yaml before \| wall \| [\d.]+ s \| [\d.]+ × \| {2}\|$/,
    );
    expect(lines.find((l) => l.startsWith("| floor-yaml with PULUMI_PARALLEL_DIFF=true | wall |"))).toMatch(
      /^\| floor-yaml with PULUMI_PARALLEL_DIFF=true \| wall \| [\d.]+ s \| {2}\| [\d.]+ × \|$/,
    );
    expect(lines.find((l) => l.startsWith("| native-yaml with PULUMI_PARALLEL_DIFF=true | wall |"))).toMatch(
      /^\| native-yaml with PULUMI_PARALLEL_DIFF=true \| wall \| [\d.]+ s \| [\d.]+ × \| [\d.]+ × \|$/,
    );
  });

  it("sets a stack's ratios against the stacks they name", () => {
    const wall = (label: string) => median(runs.find((r) => stackLabel(r) === label)!.figures.map((f) => f.wallMs));
    const row = turnsTable(runs)
      .split("\n")
      .find((l) => l.startsWith("| native-yaml with PULUMI_PARALLEL_DIFF=true | wall |"))!
      .split("|")
      .map((c) => c.trim());
    const withEnv = wall("native-yaml with PULUMI_PARALLEL_DIFF=true");
    expect(Number(row[4].replace(" ×", ""))).toBeCloseTo(withEnv / wall("floor-yaml with PULUMI_PARALLEL_DIFF=true"), 1);
    expect(Number(row[5].replace(" ×", ""))).toBeCloseTo(withEnv / wall("native-yaml"), 1);
  });
});
