import { ClouddbClient, ConfigurationError } from "../../provider/client";
import { canonicalApiUrl, packageVersion, resolveConfig } from "../../provider/client/config";
import { scheduleName } from "../../provider/client/shaping/sharedSchedule";
import { readSettings, settingsFor } from "../../provider/framework/settings";
import { startFakeApi } from "./fakeApi";

const URL_ = "http://127.0.0.1:1/public/api/v1";

describe("configuration", () => {
  it("fails without an API key, naming the option and the variable", () => {
    expect(() => resolveConfig({ apiUrl: URL_ }, {})).toThrow(ConfigurationError);
    expect(() => resolveConfig({ apiUrl: URL_ }, {})).toThrow(/`apiKey`.*CLOUDDB_API_KEY/);
  });

  it("fails without an API URL, naming the option and the variable", () => {
    expect(() => resolveConfig({ apiKey: "k-123456" }, {})).toThrow(/`apiUrl`.*CLOUDDB_API_URL/);
  });

  it("rejects a URL that is not http(s)", () => {
    expect(() => resolveConfig({ apiKey: "k-123456", apiUrl: "ftp://x/y" }, {})).toThrow(ConfigurationError);
    expect(() => resolveConfig({ apiKey: "k-123456", apiUrl: "not a url" }, {})).toThrow(ConfigurationError);
  });

  it("takes explicit options before the environment", () => {
    const cfg = resolveConfig(
      { apiKey: "opt-key-1", apiUrl: "http://a.example/public/api/v1/", projectId: "optproj001" },
      { CLOUDDB_API_KEY: "env-key-1", CLOUDDB_API_URL: "http://b.example/public/api/v1", CLOUDDB_PROJECT_ID: "envproj001" },
    );
    expect(cfg.apiKey).toBe("opt-key-1");
    expect(cfg.apiUrl).toBe("http://a.example/public/api/v1");
    expect(cfg.projectId).toBe("optproj001");
  });

  it("falls back to CLOUDDB_* variables and defaults", () => {
    const cfg = resolveConfig(
      {},
      {
        CLOUDDB_API_KEY: "env-key-1",
        CLOUDDB_API_URL: "http://b.example/public/api/v1",
        CLOUDDB_PROJECT_ID: "envproj001",
        CLOUDDB_POLL_INITIAL_MS: "40",
        CLOUDDB_POLL_MAX_MS: "400",
      },
    );
    expect(cfg).toMatchObject({
      apiKey: "env-key-1",
      apiUrl: "http://b.example/public/api/v1",
      projectId: "envproj001",
      retryDeadlineMs: 120_000,
      listCacheMs: 0,
      poll: { initialMs: 40, maxMs: 400 },
    });
  });

  describe("one endpoint, spelled otherwise, is one endpoint (every key derived from it: journal, locks, pacing files, clients)", () => {
    const ONE = "https://api.example.com/public/api/v1";
    const spellings = [
      "https://api.example.com/public/api/v1/",
      "https://api.example.com/public/api/v1///",
      "HTTPS://API.Example.COM/public/api/v1",
      "https://api.example.com:443/public/api/v1",
      "https://api.example.com/public/%61pi/%76%31",
      "https://api.example.com/public/api/x/../v1",
      "https://user:secret@api.example.com/public/api/v1",
      "  https://api.example.com/public/api/v1  ",
    ];
    it.each(spellings)("%s: the client's, the settings' and a resource's settings' form are the same, without userinfo", (spelled) => {
      expect(canonicalApiUrl(spelled)).toBe(ONE);
      expect(resolveConfig({ apiKey: "k-123456", apiUrl: spelled }, {}).apiUrl).toBe(ONE);
      expect(scheduleName(resolveConfig({ apiKey: "k-123456", apiUrl: spelled }, {}).apiUrl, "k-123456")).toBe(
        scheduleName(ONE, "k-123456"),
      );
      const settings = readSettings({ get: (k) => ({ "clouddb:apiUrl": spelled, "clouddb:apiKey": "k-123456" })[k] }, {});
      expect(settings.apiUrl).toBe(ONE);
      expect(settings.problems).toEqual([]);
      expect(settingsFor({ apiUrl: spelled }).apiUrl).toBe(ONE);
    });

    it("keeps what differs: another port, scheme, host or path, an encoded slash; and the text as given, for entries of earlier versions", () => {
      for (const other of [
        "https://api.example.com:8443/public/api/v1",
        "http://api.example.com/public/api/v1",
        "https://api2.example.com/public/api/v1",
        "https://api.example.com/eu/public/api/v1",
      ]) {
        expect(canonicalApiUrl(other)).not.toBe(ONE);
      }
      expect(canonicalApiUrl("https://api.example.com/a%2fb/public/api/v1")).toBe("https://api.example.com/a%2Fb/public/api/v1");
      expect(readSettings({ get: () => undefined }, { CLOUDDB_API_URL: `${ONE}/` })).toMatchObject({
        apiUrl: ONE,
        apiUrlAsGiven: `${ONE}/`,
      });
      expect(readSettings({ get: () => undefined }, { CLOUDDB_API_URL: ONE }).apiUrlAsGiven).toBeUndefined();
      expect(canonicalApiUrl(" not a url ")).toBe("not a url");
    });
  });

  it("reads the list's bound: clouddb:listLag (a duration, 0 too), else CLOUDDB_LIST_LAG_MS (ms), else 30 s; a bad value names its key", () => {
    const lag = (config: string | undefined, env: Record<string, string> = {}) =>
      readSettings({ get: (k) => ({ "clouddb:apiUrl": URL_, "clouddb:apiKey": "k-123456", "clouddb:listLag": config })[k] }, env);
    expect(lag(undefined).listLagMs).toBe(30_000);
    expect(lag("2s").listLagMs).toBe(2_000);
    expect(lag("0").listLagMs).toBe(0);
    expect(lag(undefined, { CLOUDDB_LIST_LAG_MS: "4500" }).listLagMs).toBe(4_500);
    expect(lag("1m", { CLOUDDB_LIST_LAG_MS: "4500" }).listLagMs).toBe(60_000);
    expect(lag("soon").problems.map((p) => p.message)).toEqual([expect.stringMatching(/^clouddb:listLag .*"soon" is not a duration/)]);
    expect(lag("200h").problems.map((p) => p.message)).toEqual([
      expect.stringContaining("out of range: expected a duration from 0 to 168h"),
    ]);
    expect(lag(undefined, { CLOUDDB_LIST_LAG_MS: "-1" }).problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/CLOUDDB_LIST_LAG_MS.*"-1" is not a number of 0 or more/),
    ]);
    expect(resolveConfig({ apiKey: "k-123456", apiUrl: URL_ }, {}).listLagMs).toBe(30_000);
    expect(resolveConfig({ apiKey: "k-123456", apiUrl: URL_ }, { CLOUDDB_LIST_LAG_MS: "500" }).listLagMs).toBe(500);
    expect(resolveConfig({ apiKey: "k-123456", apiUrl: URL_, listLagMs: 0 }, { CLOUDDB_LIST_LAG_MS: "500" }).listLagMs).toBe(0);
  });

  it("uses poll options before the poll variables, and rejects bad numbers", () => {
    const cfg = resolveConfig({ apiKey: "k-123456", apiUrl: URL_, poll: { initialMs: 5, maxMs: 50 } }, { CLOUDDB_POLL_INITIAL_MS: "40" });
    expect(cfg.poll).toEqual({ initialMs: 5, maxMs: 50 });
    expect(() => resolveConfig({ apiKey: "k-123456", apiUrl: URL_ }, { CLOUDDB_POLL_MAX_MS: "soon" })).toThrow(/CLOUDDB_POLL_MAX_MS/);
  });

  it("sends User-Agent pulumi-clouddb/<package version> and the bearer token", async () => {
    const api = await startFakeApi(() => ({ body: { type: "oauth", oauth: { user: { id: "1" } } } }));
    const client = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: "tok-abcdef", userAgent: "tests/1" });
    try {
      await client.perform("getAuthInfo");
      const pkg = require("../../package.json") as { version: string };
      expect(packageVersion()).toBe(pkg.version);
      expect(api.requests[0].headers["user-agent"]).toBe(`pulumi-clouddb/${pkg.version} tests/1`);
      expect(api.requests[0].headers.authorization).toBe("Bearer tok-abcdef");
      expect(api.requests[0].path).toBe("/public/api/v1/auth/info");
    } finally {
      await client.close();
      await api.close();
    }
  });

  it("fails a project-scoped call without a project, naming option and variable", async () => {
    const saved = process.env.CLOUDDB_PROJECT_ID;
    delete process.env.CLOUDDB_PROJECT_ID;
    const client = new ClouddbClient({ apiUrl: URL_, apiKey: "tok-abcdef" });
    try {
      await expect(client.perform("listVpcs").then((r) => r.items)).rejects.toThrow(/`projectId`.*CLOUDDB_PROJECT_ID/);
      await expect(client.perform("listVpcs").then((r) => r.items)).rejects.toBeInstanceOf(ConfigurationError);
    } finally {
      if (saved !== undefined) process.env.CLOUDDB_PROJECT_ID = saved;
      await client.close();
    }
  });
});
