/**
 * The bench's table: one row per figure and size (a curve is several rows), with this
 * tree's value beside the baseline's and the anchors', and the target; printed as it goes,
 * written as JSON, and as a Markdown table.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** One row of the table. */
export interface Row {
  /** The group of figures, e.g. `creates`. */
  section: string;
  /** What is measured. */
  metric: string;
  /** The point of the curve (`N = 100`, `L = 5,000`, `Q = 10,000`), or "". */
  size: string;
  /** This tree's figure. */
  value: string;
  /** The baseline's figure, or "" when it has none. */
  baseline: string;
  /** The figure of the code this work started from, where it differs from the baseline's kind, or "". */
  before: string;
  /** The Terraform provider's schedule, computed for the same T, or "". */
  terraform: string;
  /** tiger-cli's schedule, computed for the same T, or "". */
  tiger: string;
  /** The target, or why the figure has none. */
  target: string;
  /** null: a figure without a target. */
  pass: boolean | null;
  /** Why a target is missed (or what else a reader must know to read the figure), or "". */
  why: string;
}

/** What a row may give besides its section, metric and value. */
export type RowExtras = Partial<Pick<Row, "size" | "baseline" | "before" | "terraform" | "tiger" | "target" | "pass" | "why">>;

/** Rows and raw figures of one run. */
export class Report {
  readonly rows: Row[] = [];
  readonly raw: Record<string, unknown> = {};

  /** Adds a row and prints it at once (to stderr). */
  row(section: string, metric: string, value: string, extras: RowExtras = {}): void {
    const row: Row = {
      section,
      metric,
      value,
      size: "",
      baseline: "",
      before: "",
      terraform: "",
      tiger: "",
      target: "",
      pass: null,
      why: "",
      ...extras,
    };
    this.rows.push(row);
    const besides = [
      row.before && `before ${row.before}`,
      row.baseline && `baseline ${row.baseline}`,
      row.terraform && `Terraform ${row.terraform}`,
      row.tiger && `tiger-cli ${row.tiger}`,
    ].filter(Boolean);
    const judged = row.pass !== null ? ` (target ${row.target}: ${verdict(row)})` : row.target ? ` (${row.target})` : "";
    process.stderr.write(
      `  ${section} | ${metric}${row.size ? ` [${row.size}]` : ""}: ${value}${besides.length ? `; ${besides.join("; ")}` : ""}${judged}\n`,
    );
  }

  /** The rows as a Markdown table; the column of the code before is shown when a row has a figure in it. */
  table(baselineLabel: string, beforeLabel: string): string {
    const withBefore = this.rows.some((r) => r.before !== "");
    const head = [
      "section",
      "figure",
      "size",
      "this tree",
      ...(withBefore ? [beforeLabel] : []),
      baselineLabel,
      "Terraform",
      "tiger-cli",
      "target",
      "met?",
    ];
    const body = this.rows.map((r) => [
      r.section,
      r.metric,
      r.size,
      r.value,
      ...(withBefore ? [r.before] : []),
      r.baseline,
      r.terraform,
      r.tiger,
      r.target,
      verdict(r),
    ]);
    const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
    return [line(head), `|${head.map(() => "---").join("|")}|`, ...body.map(line)].join("\n");
  }

  /** Writes bench/results/bench-<time>.json and latest.json; returns the file written. */
  write(started: Date, about: Record<string, unknown>): string {
    const result = {
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      node: process.version,
      cpus: os.cpus().length,
      ...about,
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

/** A row's verdict: `met`, `not met: <why>`, or its note when it has no target. */
export function verdict(row: Row): string {
  if (row.pass === null) return row.why;
  if (row.pass) return row.why ? `met (${row.why})` : "met";
  return row.why ? `not met: ${row.why}` : "not met";
}

/** Milliseconds as seconds, two decimals. */
export const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** A ratio, two decimals. */
export const ratio = (a: number, b: number): string => (b > 0 ? (a / b).toFixed(2) : "n/a");

/** A count with thousands separators. */
export const count = (n: number): string => n.toLocaleString("en-US");

/** Bytes in KB or MB. */
export const bytes = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} KB`);
