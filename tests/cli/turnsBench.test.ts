/**
 * `npm run bench:turns`'s pieces, under the real CLI at N = 2: the floor from YAML and the
 * native plugin from YAML, twice (once with the tarball given as `--plugin-before`, installed
 * over the one the stack came with), each stack `up` once and then refreshed in turns; the
 * figures are read from their processes; the table has each stack's medians, the ratio to its
 * floor, and after ÷ before for the stack that has a "before".
 */
import { parseTurns, runTurns, turnsTable, type TurnsRun } from "../../bench/commandTurns";
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
    });
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
    });
  }, 360_000);

  it("runs the command on each stack in turns, the plugin before in a stack of its own, measured from their processes", () => {
    expect(runs.map((r) => `${r.host}${r.before ? " before" : ""}`)).toEqual(["floor-yaml", "native-yaml", "native-yaml before"]);
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

  it("tabulates each stack's medians, the ratio to its floor and after ÷ before", () => {
    const lines = turnsTable(runs).split("\n");
    expect(lines[0]).toBe("| stack | figure | median | ÷ its floor | after ÷ before |");
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
  });
});
