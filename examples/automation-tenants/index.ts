/**
 * A database per tenant with the Automation API (tenants.ts), from the command line:
 *
 *   npx ts-node examples/automation-tenants/index.ts up --tenants 10 --parallel 5
 *   npx ts-node examples/automation-tenants/index.ts destroy --tenants 10
 *   npx ts-node examples/automation-tenants/index.ts up acme globex initech
 *
 * The API is the one `CLOUDDB_API_URL`, `CLOUDDB_API_KEY` and `CLOUDDB_PROJECT_ID` name
 * (`eval "$(npm run --silent emulator:env)"` for the local emulator); the Pulumi CLI is the
 * `pulumi` on PATH. The stacks' state is kept in `CLOUDDB_TENANTS_DIR` (default
 * `.clouddb/tenants` at the repository root). Prints a line per step of every tenant, then a summary; exits 1 when a
 * tenant failed.
 */
import { destroyTenants, type Progress, progressLine, provisionTenants, tenantNames, type TenantResult } from "./tenants";

/** What the command line asks for. */
interface Command {
  action: "up" | "destroy";
  tenants: string[];
  parallel: number;
}

const USAGE = "usage: index.ts up|destroy [--tenants N | name ...] [--parallel P]";

function parse(argv: string[]): Command {
  const [action, ...rest] = argv;
  if (action !== "up" && action !== "destroy") throw new Error(USAGE);
  let count: number | undefined;
  let parallel = 4;
  const names: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--tenants" || arg === "--parallel") {
      const n = Number(rest[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${arg} takes a whole number of at least 1\n${USAGE}`);
      if (arg === "--tenants") count = n;
      else parallel = n;
    } else if (arg.startsWith("-")) {
      throw new Error(`unknown option ${arg}\n${USAGE}`);
    } else {
      names.push(arg);
    }
  }
  const tenants = names.length > 0 ? names : tenantNames(count ?? 3);
  return { action, tenants, parallel };
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") {
    throw new Error(`${name} is not set: for the local emulator, run \`eval "$(npm run --silent emulator:env)"\` first`);
  }
  return value;
}

async function main(): Promise<void> {
  const command = parse(process.argv.slice(2));
  const api = { apiUrl: env("CLOUDDB_API_URL"), apiKey: env("CLOUDDB_API_KEY"), projectId: env("CLOUDDB_PROJECT_ID") };
  const t0 = Date.now();
  let done = 0;
  const onProgress = (event: Progress): void => {
    if (event.kind === "finished") done++;
    if (event.kind !== "waiting") process.stdout.write(`${progressLine(event, t0, done, command.tenants.length)}\n`);
  };
  process.stdout.write(
    `pulumi ${command.action} of ${command.tenants.length} tenant stack(s), ${command.parallel} at a time, against ${api.apiUrl}\n`,
  );
  const run = command.action === "up" ? provisionTenants : destroyTenants;
  const results: TenantResult[] = await run({
    tenants: command.tenants,
    api,
    parallel: command.parallel,
    onProgress,
    ...(process.env.CLOUDDB_TENANTS_DIR ? { stateDir: process.env.CLOUDDB_TENANTS_DIR } : {}),
  });
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(
    `\n${results.length - failed.length} of ${results.length} tenant(s) done in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`,
  );
  for (const r of results) {
    const where = r.outputs === undefined ? "" : `  ${String(r.outputs.host)}:${String(r.outputs.port)}`;
    process.stdout.write(
      `  ${r.tenant.padEnd(12)} ${r.ok ? "ok    " : "FAILED"} ${(r.ms / 1000).toFixed(1).padStart(6)}s${where}${r.message ? `  ${r.message}` : ""}\n`,
    );
  }
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
