/** Command-line flags of `clouddb-emulator`. */
import { parseArgs } from "node:util";
import { DEFAULT_CLI_PORT, DEFAULT_HOST, EmulatorOptionsError, type EmulatorOptions } from "./options";

/** Usage text of the CLI. */
export const USAGE = `Usage: clouddb-emulator [options]

  --port <n>          TCP port, 0 picks a free one (default ${DEFAULT_CLI_PORT})
  --host <addr>       interface to listen on (default ${DEFAULT_HOST})
  --clock-scale <f>   factor on every transition time, e.g. 0.01 (default 1)
  --frozen-clock      the clock moves only when POST /_emulator/clock advances it
  --data-dir <dir>    keep state durably in <dir> (default: in memory)
  --project-id <id>   default project id, 10 chars [a-z0-9] (default: stored, else random)
  --pat <token>       personal access token (default clouddb-emulator-pat)
  --oauth-token <t>   OAuth user token (default clouddb-emulator-oauth)
  --postgres          a real PostgreSQL server behind every service (needs PostgreSQL and openssl)
  --help              show this text
`;

/** What the command line asks for. */
export type CliCommand = { kind: "help" } | { kind: "run"; options: EmulatorOptions };

function toNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new EmulatorOptionsError(flag, `${JSON.stringify(value)} is not a number`);
  return n;
}

/** Parses the arguments (without `node` and the script). @throws EmulatorOptionsError, or parseArgs' TypeError for unknown flags */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "clock-scale": { type: "string" },
      "frozen-clock": { type: "boolean" },
      "data-dir": { type: "string" },
      "project-id": { type: "string" },
      pat: { type: "string" },
      "oauth-token": { type: "string" },
      postgres: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return { kind: "help" };
  const options: EmulatorOptions = { port: toNumber("--port", values.port) ?? DEFAULT_CLI_PORT };
  const clockScale = toNumber("--clock-scale", values["clock-scale"]);
  if (clockScale !== undefined) options.clockScale = clockScale;
  if (values["frozen-clock"] === true) options.frozenClock = true;
  if (values.host !== undefined) options.host = values.host;
  if (values["data-dir"] !== undefined) options.dataDir = values["data-dir"];
  if (values["project-id"] !== undefined) options.projectId = values["project-id"];
  if (values.pat !== undefined) options.pat = values.pat;
  if (values["oauth-token"] !== undefined) options.oauthToken = values["oauth-token"];
  if (values.postgres === true) options.postgres = true;
  return { kind: "run", options };
}
