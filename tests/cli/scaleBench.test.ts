/**
 * `npm run bench:scale`'s pieces, under the real CLI at N = 2 (the floor and the dynamic
 * path; then the YAML floor and the same Thing served from Node.js, bench/noop-provider-node):
 * each host's stack goes up, previews, refreshes and is destroyed through the CLI;
 * the figures are read from its processes (the engine, the program, the plugin) and the
 * checkpoint; the table has every figure's row with the dynamic path's ratio to the floor.
 */
import { COMMANDS, runScale, scaleTable, type ScaleRun } from "../../bench/scale";
import { describeWithCli } from "../../harness/cli/tools";
import type { Host } from "../../bench/scalePrograms";

/** The runs of `hosts` at N = 2, made once before the block's tests: read them through the getter. */
function scaleRunsOf(hosts: Host[]): () => ScaleRun[] {
  let runs: ScaleRun[] = [];
  beforeAll(async () => {
    runs = await runScale({ ns: [2], hosts, repeats: 1 });
  }, 240_000);
  return () => runs;
}

describeWithCli("the scale bench under the real CLI", () => {
  const ran = scaleRunsOf(["floor", "dynamic"]);

  it("measures every command of both hosts from their processes, and the state per service", () => {
    expect(ran().map((r) => `${r.host} ${r.n}`)).toEqual(["floor 2", "dynamic 2"]);
    for (const r of ran()) {
      expect(r.statePerService).toBeGreaterThan(0);
      for (const c of COMMANDS) {
        expect(r.commands[c].wallMs).toBeGreaterThan(0);
        // The engine's own CPU is read from the pulumi process: a run that missed it reads 0.
        expect(r.commands[c].engineCpuMs).toBeGreaterThan(0);
      }
      // The plugin is found among the CLI's children while `up` runs (the no-op Go provider; the dynamic-provider host).
      expect(r.commands.up.pluginPeakMb).toBeGreaterThan(0);
    }
    const dynamic = ran().find((r) => r.host === "dynamic")!;
    const floor = ran().find((r) => r.host === "floor")!;
    // The dynamic-provider host is a Node.js process (over 100 MB); the floor a Go binary (about 30 MB): the peak is the plugin's own.
    expect(dynamic.commands.up.pluginPeakMb).toBeGreaterThan(2 * floor.commands.up.pluginPeakMb);
    // The dynamic path's state holds the provider's serialized text beside a Service's outputs: more than the floor's.
    expect(dynamic.statePerService).toBeGreaterThan(floor.statePerService);
  });

  it("compares like with like: the floor's Thing records a Service's outputs in the same shape (the engine's CPU follows it)", () => {
    const dynamic = ran().find((r) => r.host === "dynamic")!;
    const floor = ran().find((r) => r.host === "floor")!;
    expect(dynamic.outputShape).toMatchObject({ haReplicas: { replicaCount: "number" }, password: "secret" });
    expect(floor.outputShape).toEqual(dynamic.outputShape);
  });

  it("tabulates each figure for N = 2 with the floor's value and the dynamic path's ratio to it", () => {
    const lines = scaleTable(ran()).split("\n");
    expect(lines[0]).toBe("| N | figure | floor | dynamic ÷ floor |");
    for (const figure of [
      "up: wall",
      "preview: engine CPU",
      "refresh: program CPU",
      "destroy: wall",
      "up: plugin peak memory",
      "state per service",
    ]) {
      const row = lines.find((l) => l.startsWith(`| 2 | ${figure} |`));
      expect(row).toMatch(/^\| 2 \| [^|]+ \| [\d.]+ (s|MB|KB) \| [\d.]+ × \|$/);
    }
    const state = lines.find((l) => l.startsWith("| 2 | state per service |"))!;
    expect(Number(/\| ([\d.]+) KB \|/.exec(state)?.[1])).toBeGreaterThan(0);
  });
});

describeWithCli("the scale bench's Node.js floor under the real CLI", () => {
  const ran = scaleRunsOf(["floor-yaml", "node-floor-yaml"]);

  it("serves the Go floor's Thing from Node.js through every command, its process counted as the plugin", () => {
    const go = ran().find((r) => r.host === "floor-yaml")!;
    const node = ran().find((r) => r.host === "node-floor-yaml")!;
    for (const c of COMMANDS) expect(node.commands[c].engineCpuMs).toBeGreaterThan(0);
    // Node.js and gRPC's modules: several times the Go binary's 30 MB, and CPU a Go provider's start does not spend.
    expect(node.commands.up.pluginPeakMb).toBeGreaterThan(1.5 * go.commands.up.pluginPeakMb);
    expect(node.commands.up.pluginCpuMs).toBeGreaterThan(0);
    // The same resource, recorded alike: the Node.js floor answers as thing.go does.
    expect(node.outputShape).toEqual(go.outputShape);
    expect(node.statePerService / go.statePerService).toBeGreaterThan(0.9);
    expect(node.statePerService / go.statePerService).toBeLessThan(1.1);
  });

  it("sets the Node.js floor against the Go floor of the same YAML program", () => {
    expect(scaleTable(ran()).split("\n")[0]).toBe("| N | figure | floor-yaml | node-floor-yaml ÷ floor-yaml |");
  });
});
