/**
 * Type checks files of a fresh project with its own TypeScript (`tsc` from its
 * node_modules) under a tsconfig derived from Pulumi's template, and reports the errors
 * and the files the compilation read (its type graph).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { TEMPLATE_TSCONFIG } from "./freshProject";

/** Module settings tried, each as `compilerOptions` over the template's. */
export const RESOLUTIONS = {
  /** The template since March 2026. */
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  /** The template before (and most existing Pulumi projects): `moduleResolution: node`. */
  node: { module: "commonjs", moduleResolution: "node" },
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "preserve", moduleResolution: "bundler" },
} as const;

/** One resolution mode's name. */
export type Resolution = keyof typeof RESOLUTIONS;

/** What a check found. */
export interface TypecheckResult {
  /** `file(line,col): error TSxxxx: message` lines. */
  errors: string[];
  /** Files the compilation read, relative to the project. */
  files: string[];
}

/** Type checks `files` of the project in `dir` under `resolution`, with `extra` compiler options. */
export function typecheck(dir: string, files: string[], resolution: Resolution, extra: Record<string, unknown> = {}): TypecheckResult {
  const config = path.join(dir, `tsconfig.check-${resolution}.json`);
  fs.writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...TEMPLATE_TSCONFIG.compilerOptions, ...RESOLUTIONS[resolution], ...extra, noEmit: true, pretty: false },
      files,
    }),
  );
  const tsc = path.join(dir, "node_modules", "typescript", "bin", "tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", config, "--listFiles"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  const lines = `${r.stdout}\n${r.stderr}`.split("\n");
  return {
    errors: lines.filter((l) => / error TS\d+:/.test(l)),
    files: lines.filter((l) => l.startsWith("/") && /\.[cm]?tsx?$/.test(l)).map((l) => path.relative(dir, l)),
  };
}
