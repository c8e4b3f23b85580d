#!/usr/bin/env node
/**
 * `clouddb-emulator`: starts the emulator and prints, one `KEY=value` a line, the base
 * URL, the tokens and the project ids, so scripts can parse them.
 */
import { parseCliArgs, USAGE } from "./cli-args";
import { startEmulator, type RunningEmulator } from "./start";

/** The lines printed at start, `KEY=value`, the base URL first. */
export function startupLines(emu: RunningEmulator): string[] {
  return [
    `CLOUDDB_API_URL=${emu.baseUrl}`,
    `CLOUDDB_API_KEY=${emu.pat}`,
    `CLOUDDB_PROJECT_ID=${emu.projectId}`,
    `CLOUDDB_OAUTH_TOKEN=${emu.oauthToken}`,
    `CLOUDDB_SECOND_PROJECT_ID=${emu.secondProjectId}`,
    `CLOUDDB_EMULATOR_URL=${emu.url}`,
  ];
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`clouddb-emulator: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (command.kind === "help") {
    process.stdout.write(USAGE);
    return;
  }
  const emu = await startEmulator(command.options);
  process.stdout.write(`${startupLines(emu).join("\n")}\n`);
  process.stderr.write(
    `clouddb-emulator listening on ${emu.url} (clock scale ${command.options.clockScale ?? 1}, ` +
      `${command.options.dataDir === undefined ? "state in memory" : `data dir ${command.options.dataDir}`}` +
      `${command.options.postgres ? ", a PostgreSQL server behind every service" : ""}); Ctrl-C stops it\n`,
  );
  const stop = (): void => {
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`clouddb-emulator: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  });
}
