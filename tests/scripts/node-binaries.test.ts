/**
 * The Node.js binaries the single-file build is made of (scripts/plugin/node-binaries.js) are
 * fetched once into a shared cache (`.tools/node/`, CLOUDDB_NODE_CACHE), which test workers and
 * the packing scripts use at the same time: two processes fetching the same package at once
 * both get it whole. The registry is a stand-in here (an `npm` on PATH that packs a small
 * package, and a `tar` that takes its time, so that the two fetches overlap); the packing
 * scripts' tests and the rehearsal fetch the real ones.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

const realTar = spawnSync("sh", ["-c", "command -v tar"], { encoding: "utf8" }).stdout.trim();

/** `npm pack --json --pack-destination <dir> <spec>`: a package holding bin/node and its package.json. */
const FAKE_NPM = `#!/bin/sh
dest=""
while [ $# -gt 0 ]; do
  case "$1" in --pack-destination) dest="$2"; shift ;; esac
  shift
done
src=$(mktemp -d)
mkdir -p "$src/package/bin"
printf '{"name":"node-fake","version":"24.9.9"}' > "$src/package/package.json"
printf '#!/bin/sh\\necho v24.9.9\\n' > "$src/package/bin/node"
chmod 755 "$src/package/bin/node"
${realTar} -czf "$dest/node-fake-24.9.9.tgz" -C "$src" package
rm -rf "$src"
echo '[{"filename":"node-fake-24.9.9.tgz"}]'
`;

/** A tar that waits a while before unpacking (the other fetch starts meanwhile). */
const SLOW_TAR = `#!/bin/sh
sleep 2
exec ${realTar} "$@"
`;

/** Runs nodeBinary in a process of its own; its exit code and output. */
function fetchInChild(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `const { nodeBinary } = require(${JSON.stringify(path.join(REPO_ROOT, "scripts", "plugin", "node-binaries"))});
process.stdout.write(JSON.stringify(nodeBinary("node-fake", "24", "bin/node")));`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["-e", script], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the Node.js binaries of the single-file build", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-node-binaries-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("are fetched whole by two processes fetching the same package at once, and kept", async () => {
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "npm"), FAKE_NPM, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, "tar"), SLOW_TAR, { mode: 0o755 });
    const cache = path.join(dir, "cache");
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, CLOUDDB_NODE_CACHE: cache };

    const first = fetchInChild(env);
    await new Promise((r) => setTimeout(r, 700));
    const second = fetchInChild(env);
    const results = await Promise.all([first, second]);

    const expected = { file: path.join(cache, "node-fake@24", "package", "bin", "node"), version: "24.9.9" };
    for (const r of results) {
      expect(r.stderr).toContain("fetching node-fake@24 from the npm registry...");
      expect({ code: r.code, out: r.stdout ? (JSON.parse(r.stdout) as unknown) : r.stderr }).toEqual({ code: 0, out: expected });
    }
    expect(spawnSync(expected.file, { encoding: "utf8" }).stdout).toBe("v24.9.9\n");
    expect(fs.readdirSync(cache)).toEqual(["node-fake@24"]);

    // Kept: a later process fetches nothing.
    const later = await fetchInChild({ ...env, PATH: process.env.PATH });
    expect(later.code).toBe(0);
    expect(later.stderr).toBe("");
    expect(JSON.parse(later.stdout)).toEqual(expected);
  }, 60_000);
});
