/**
 * The real Pulumi CLI the real-CLI tier runs: the one `npm run pulumi:build` built from its
 * Go modules for the pins in tools/pulumi/versions.json (scripts/lib/pulumi-tools.js).
 * Without it the tier is skipped and says so, unless `CLOUDDB_REQUIRE_PULUMI=1` (CI), which
 * makes it fail instead.
 */
import { REPO_ROOT } from "../stack";

/** The built tools: `bin` holds `pulumi`, the language hosts and `pulumi-resource-pulumi-nodejs`. */
export interface CliTools {
  /** The folder that holds `bin/pulumi` (what the Automation API's `PulumiCommand.get` takes as `root`). */
  readonly dir: string;
  readonly bin: string;
  readonly pulumi: string;
  /** The CLI's version, e.g. `v3.274.1`. */
  readonly version: string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require("../../scripts/lib/pulumi-tools") as {
  builtTools(root: string, env: NodeJS.ProcessEnv): CliTools | undefined;
};

/** The built tools of the current pins, or undefined when they are not built. */
export function cliTools(): CliTools | undefined {
  return tools.builtTools(REPO_ROOT, process.env);
}

/**
 * `describe` when the real CLI is built, else `describe.skip` with the reason in the title
 * (the skipped-suites reporter prints it). With `CLOUDDB_REQUIRE_PULUMI=1` a missing CLI
 * fails the suite instead.
 */
export function describeWithCli(title: string, body: (tools: CliTools) => void): void {
  const found = cliTools();
  if (found !== undefined) {
    describe(`${title} (Pulumi CLI ${found.version})`, () => body(found));
    return;
  }
  if (process.env.CLOUDDB_REQUIRE_PULUMI === "1") {
    describe(title, () => {
      it("needs the Pulumi CLI built from its Go modules (npm run pulumi:build)", () => {
        throw new Error("CLOUDDB_REQUIRE_PULUMI=1 but the Pulumi tools are not built: run `npm run pulumi:build`");
      });
    });
    return;
  }
  console.warn("skipped: the Pulumi CLI is not built (npm run pulumi:build), so the real-CLI suite did not run");
  describe.skip(title, () => body(undefined as unknown as CliTools));
}
