/**
 * A test file ends once the handles it opened have closed, so jest's workers exit on their
 * own: jest ends a worker by letting its event loop run dry and kills one still alive
 * 500 ms later, printing "A worker process has failed to exit gracefully". Our environment
 * (tests/setup/inspectorSessions.js) waits up to 2 s for a file's own handles, and names
 * what is still open then. Runs jests of their own on files that open a server and close
 * it after their test has ended: 1 s after (a socket still closing, a timer still pending)
 * and 4 s after (a leak).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

/** A test file that opens a server and closes it `ms` after its test has ended. */
const closingAfter = (ms: number): string => `
const http = require("http");
test("opens a server", async () => {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  setTimeout(() => server.close(), ${ms});
});
`;

describe("a test file's handles at its end", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-worker-exit-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs jest, with `environment`, in two workers on the files written from `files`; resolves with its standard error. */
  async function jestOn(name: string, environment: string, files: Record<string, string>): Promise<string> {
    const root = path.join(dir, name);
    fs.mkdirSync(root);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(root, file), text);
    const config = { rootDir: root, testMatch: ["**/*.fixture.js"], testEnvironment: environment, transform: {}, maxWorkers: 2 };
    const jest = require.resolve("jest/bin/jest", { paths: [REPO_ROOT] });
    // A cache of its own: with no timings known, jest runs two files in two workers, not in band.
    const args = [jest, "--config", JSON.stringify(config), "--cacheDirectory", path.join(root, ".cache"), "--ci"];
    return new Promise((resolve) => {
      execFile(process.execPath, args, { cwd: root, timeout: 60_000 }, (_e, _o, stderr) => resolve(stderr));
    });
  }

  const ours = path.join(REPO_ROOT, "tests/setup/inspectorSessions.js");
  const late = { "a.fixture.js": closingAfter(1_000), "b.fixture.js": closingAfter(1_000) };

  it("without the wait, a server closed 1 s after its file's end gets a worker killed", async () => {
    const stderr = await jestOn("node", "node", late);
    expect(stderr).toMatch(/Tests:\s+2 passed/);
    expect(stderr).toMatch(/A worker process has failed to exit gracefully/);
  }, 90_000);

  it("with it, the workers exit on their own and nothing is named", async () => {
    const stderr = await jestOn("ours", ours, late);
    expect(stderr).toMatch(/Tests:\s+2 passed/);
    expect(stderr).not.toMatch(/failed to exit gracefully/);
    expect(stderr).not.toMatch(/ left /);
  }, 90_000);

  it("a server still open 2 s after its file's end is named, with the file", async () => {
    const stderr = await jestOn("leak", ours, { "a.fixture.js": closingAfter(1_000), "leak.fixture.js": closingAfter(4_000) });
    expect(stderr).toMatch(/Tests:\s+2 passed/);
    const named = stderr.split("\n").filter((line) => line.includes(" left "));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(
      /leak\.fixture\.js left server \{"address":"127\.0\.0\.1","family":"IPv4","port":\d+\}, timer open 2000 ms after its end/,
    );
  }, 90_000);
});
