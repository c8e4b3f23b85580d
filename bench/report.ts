/** The bench's table: one row per figure, with its target, printed and written as JSON. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** One row of the table. */
export interface Row {
  section: string;
  metric: string;
  value: string;
  target: string;
  /** null: a figure without a target. */
  pass: boolean | null;
}

/** Rows and raw figures of one run. */
export class Report {
  readonly rows: Row[] = [];
  readonly raw: Record<string, unknown> = {};

  /** Adds a row and prints it at once (to stderr). */
  row(section: string, metric: string, value: string, target = "", pass: boolean | null = null): void {
    this.rows.push({ section, metric, value, target, pass });
    process.stderr.write(
      `  ${section} | ${metric}: ${value}${pass !== null ? ` (target ${target}: ${pass ? "ok" : "MISSED"})` : target ? ` (${target})` : ""}\n`,
    );
  }

  /** The rows as a Markdown table. */
  table(): string {
    const head = ["section", "metric", "value", "target", ""];
    const body = this.rows.map((r) => [r.section, r.metric, r.value, r.target, r.pass === null ? "" : r.pass ? "ok" : "MISSED"]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
    return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
  }

  /** Writes bench/results/bench-<time>.json and latest.json; returns the file written. */
  write(started: Date): string {
    const result = {
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      node: process.version,
      cpus: os.cpus().length,
      rows: this.rows,
      raw: this.raw,
    };
    const dir = path.join(__dirname, "results");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, JSON.stringify(result, null, 2));
    fs.writeFileSync(path.join(dir, "latest.json"), JSON.stringify(result, null, 2));
    return file;
  }
}

/** Milliseconds as seconds, two decimals. */
export const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
