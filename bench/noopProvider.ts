/**
 * The no-op Go provider (bench/noop-provider, Pulumi's Go SDK and nothing else): the floor a
 * provider plugin is measured against. Built once per source with `go build -trimpath
 * -ldflags "-s -w"` (as Pulumi's Go providers are released), and packed as a release's
 * tarball would be, under `.tools/bench/` (`CLOUDDB_BENCH_TOOLS`):
 *
 *   npx ts-node --transpile-only bench/noopProvider.ts    # prints the binary and the tarball
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the release's own packing helpers, typed here
const { run, tarball } = require("../scripts/plugin/run") as {
  run: (command: string, args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }) => string;
  tarball: (out: string, dir: string, files: string[]) => void;
};

const SOURCE = path.join(REPO_ROOT, "bench", "noop-provider");

/**
 * The Node.js no-op provider's folder (bench/noop-provider-node): its launcher
 * `pulumi-resource-noop` runs pulumi-resource-noop.js on the node on PATH, nothing to build.
 */
export const NODE_NOOP_DIR = path.join(REPO_ROOT, "bench", "noop-provider-node");

/** The built provider: its binary and its release tarball (`pulumi-resource-noop-v0.0.1-linux-amd64.tar.gz`). */
export interface NoopProvider {
  readonly binary: string;
  readonly tarball: string;
}

/** Builds the no-op provider if its source changed since the last build; its files. */
export function buildNoopProvider(): NoopProvider {
  const hash = createHash("sha256");
  for (const f of fs.readdirSync(SOURCE).sort()) hash.update(f).update(fs.readFileSync(path.join(SOURCE, f)));
  const dir = path.join(
    process.env.CLOUDDB_BENCH_TOOLS ?? path.join(REPO_ROOT, ".tools", "bench"),
    `noop-provider-${hash.digest("hex").slice(0, 12)}`,
  );
  const binary = path.join(dir, "pulumi-resource-noop");
  const packed = path.join(dir, "pulumi-resource-noop-v0.0.1-linux-amd64.tar.gz");
  if (!fs.existsSync(packed)) {
    fs.mkdirSync(dir, { recursive: true });
    process.stderr.write(`building the no-op Go provider into ${dir} (a first build compiles Pulumi's Go SDK: minutes)...\n`);
    run("go", ["build", "-trimpath", "-ldflags", "-s -w", "-o", binary, "."], {
      cwd: SOURCE,
      env: { ...process.env, CGO_ENABLED: "0", GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "-mod=mod" },
    });
    tarball(packed, dir, ["pulumi-resource-noop"]);
  }
  return { binary, tarball: packed };
}

if (require.main === module) {
  const built = buildNoopProvider();
  process.stdout.write(`${built.binary}\n${built.tarball}\n`);
}
