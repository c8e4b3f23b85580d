#!/usr/bin/env node
/**
 * `clouddb-import`: writes a `pulumi import --file` document of what exists in a project,
 * and prints the program that declares it.
 *
 *   npx clouddb-import --out import.json [--program index.ts] [--type Service,Vpc] [--id <id>,...]
 *
 * Reads CLOUDDB_API_URL, CLOUDDB_API_KEY and CLOUDDB_PROJECT_ID (or --project).
 */
import * as fs from "fs";
import { ClouddbClient } from "../client";
import { apiKeyProblem, apiUrlProblem } from "../client/config";
import { importDocument } from "./document";
import { importProgram } from "./program";

const USAGE = `usage: clouddb-import --out <file> [--program <file>] [--type <Kind,...>] [--id <id,...>] [--project <id>]

Writes a \`pulumi import --file\` document (Pulumi CLI 3.254 or later) of the project's VPCs,
peerings, services and read replica sets, and the program that declares them (to --program,
else to stdout). Then: \`pulumi import --file <file> --generate-code=false\`, and \`pulumi up\` shows no change.
A resource the API does not show readably is left out, saying why, and the command exits 1.
Needs CLOUDDB_API_URL and CLOUDDB_API_KEY (and CLOUDDB_PROJECT_ID, or --project).
`;

function parse(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") throw new Error("");
    if (!["--out", "--program", "--type", "--id", "--project"].includes(flag)) throw new Error(`unknown argument ${flag}`);
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    out[flag.slice(2)] = value;
  }
  if (!out.out) throw new Error("--out is required");
  return out;
}

/**
 * Every reason the command cannot start, in its own terms (its variables and `--project`),
 * without quoting the key or a URL's credentials.
 */
function setUpProblems(args: Record<string, string>, env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const url = env.CLOUDDB_API_URL?.trim();
  if (!url) problems.push("CLOUDDB_API_URL is not set: the API's base URL, https://<host>/public/api/v1");
  else {
    const problem = apiUrlProblem(url);
    if (problem !== undefined) problems.push(`CLOUDDB_API_URL: ${problem}`);
  }
  const key = env.CLOUDDB_API_KEY;
  if (!key?.trim()) problems.push("CLOUDDB_API_KEY is not set: a personal access token or OAuth token of the project");
  else {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) problems.push(`CLOUDDB_API_KEY: the key ${problem}`);
  }
  if (!(args.project ?? env.CLOUDDB_PROJECT_ID)?.trim()) problems.push("no project: set CLOUDDB_PROJECT_ID or pass --project <id>");
  return problems;
}

async function main(): Promise<void> {
  let args: Record<string, string>;
  try {
    args = parse(process.argv.slice(2));
  } catch (e) {
    const message = (e as Error).message;
    process.stderr.write(`${message ? `clouddb-import: ${message}\n\n` : ""}${USAGE}`);
    process.exit(message ? 2 : 0);
  }
  const problems = setUpProblems(args, process.env);
  if (problems.length > 0) {
    process.stderr.write(`clouddb-import: cannot start:\n${problems.map((p) => `  ${p}\n`).join("")}`);
    process.exit(2);
  }
  const projectId = args.project ?? process.env.CLOUDDB_PROJECT_ID ?? "";
  const api = new ClouddbClient({ projectId });
  try {
    const leftOut: string[] = [];
    const doc = await importDocument(
      api,
      projectId,
      { ...(args.type ? { kinds: args.type.split(",") } : {}), ...(args.id ? { ids: args.id.split(",") } : {}) },
      (why) => leftOut.push(why),
    );
    fs.writeFileSync(args.out, `${JSON.stringify(doc, null, 2)}\n`);
    const program = importProgram(doc);
    if (args.program) fs.writeFileSync(args.program, program);
    else process.stdout.write(program);
    process.stderr.write(
      `clouddb-import: wrote ${doc.resources.length} resource${doc.resources.length === 1 ? "" : "s"} to ${args.out}; next: pulumi import --file ${args.out} --generate-code=false\n`,
    );
    // What the API did not show readably is left out of the document, and the command fails, so that a pipeline tries again.
    for (const why of leftOut) process.stderr.write(`clouddb-import: ${why}\n`);
    if (leftOut.length > 0) process.exitCode = 1;
  } catch (e) {
    process.stderr.write(`clouddb-import: ${(e as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await api.close();
  }
}

void main();
