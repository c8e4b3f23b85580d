/**
 * What a program loads when it imports the SDK: its resource classes construct from literals
 * generated from the definitions, and the lookups load their implementation when first run,
 * so neither zod nor the API client (undici) is loaded before a lookup runs.
 */
import { execFileSync } from "child_process";
import { REPO_ROOT } from "../../harness";

/** Runs `code` in a fresh Node process in the repository (where `pulumi-clouddb` resolves) and parses what it prints. */
function inFreshProcess<T>(code: string): T {
  return JSON.parse(execFileSync(process.execPath, ["-e", code], { cwd: REPO_ROOT, encoding: "utf8" })) as T;
}

/** Counts the modules of the require cache that `code` loaded, by group. */
const counting = (code: string): string => `
const before = new Set(Object.keys(require.cache));
Promise.resolve().then(async () => { ${code} }).then(() => {
  const loaded = Object.keys(require.cache).filter((m) => !before.has(m));
  const count = (re) => loaded.filter((m) => re.test(m)).length;
  console.log(JSON.stringify({ zod: count(/node_modules[\\\\/]zod[\\\\/]/), undici: count(/node_modules[\\\\/]undici[\\\\/]/), client: count(/provider[\\\\/]client[\\\\/]/), definitions: count(/provider[\\\\/]resources[\\\\/]/) }));
});`;

describe("importing the SDK", () => {
  it("loads no zod, no HTTP client and no definition: the classes construct from generated literals", () => {
    const loaded = inFreshProcess<Record<string, number>>(counting('require("pulumi-clouddb");'));
    expect(loaded).toEqual({ zod: 0, undici: 0, client: 0, definitions: 0 });
  });

  it("loads them when a lookup first runs", () => {
    const loaded = inFreshProcess<Record<string, number>>(
      counting(
        'await require("pulumi-clouddb").getVpcs({}, { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "k", projectId: "p" }).catch(() => undefined);',
      ),
    );
    expect(loaded.zod).toBeGreaterThan(0);
    expect(loaded.undici).toBeGreaterThan(0);
    expect(loaded.client).toBeGreaterThan(0);
    expect(loaded.definitions).toBeGreaterThan(0);
  });
});
