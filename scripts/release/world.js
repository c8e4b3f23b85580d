// @ts-check
/**
 * A new user's machine for the rehearsal: for each path, a fresh HOME (so an empty plugin
 * cache, `~/.pulumi/plugins`, and no npm, pip or Pulumi settings) with the Pulumi CLI and its
 * language hosts in `~/.pulumi/bin` as Pulumi's installer puts them (linked from the CLI this
 * repository built), the registries pointed at the stand-ins, and nothing of the repository:
 * no PATH entry, variable or installed file names the clone (`checkNoClone`).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

/**
 * Links `from` as `to` (a copy across file systems).
 * @param {string} from
 * @param {string} to
 */
function linkOrCopy(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  // A link's target, not the link (a relative link, as the Java host's in the tools' bin, means nothing elsewhere).
  const file = fs.realpathSync(from);
  try {
    fs.linkSync(file, to);
  } catch {
    fs.copyFileSync(file, to);
    fs.chmodSync(to, fs.statSync(file).mode);
  }
}

/**
 * The folders of PATH that a user's own would have: none inside the clone (`npm run` puts its
 * `node_modules/.bin` first). With `noNode`, each folder holding a `node` is replaced by a
 * folder of links to everything in it but Node.js and its tools (a machine without Node.js).
 * @param {string} base where such folders are made
 * @param {string[]} clone the clone's paths
 * @param {boolean} noNode
 */
function userPath(base, clone, noNode) {
  const nodeTools = new Set(["node", "nodejs", "npm", "npx", "corepack"]);
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => d !== "" && !clone.some((c) => d.startsWith(c)))
    .map((d) => {
      if (!noNode || !fs.existsSync(path.join(d, "node"))) return d;
      const shadow = path.join(base, "path-without-node", d.replace(/[^A-Za-z0-9]+/g, "_"));
      if (!fs.existsSync(shadow)) {
        fs.mkdirSync(shadow, { recursive: true });
        for (const e of fs.readdirSync(d)) if (!nodeTools.has(e)) fs.symlinkSync(path.join(d, e), path.join(shadow, e));
      }
      return shadow;
    })
    .filter((d, i, all) => all.indexOf(d) === i);
}

/**
 * What the user's environment keeps of this one: the machine's certificate settings and
 * proxies (a user of this machine has them too); nothing else.
 */
function machineEnv() {
  const keep =
    /^(LANG|LC_ALL|TZ|USER|LOGNAME|SHELL|TERM|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|PIP_CERT|(https?|no|all)_proxy|(HTTPS?|NO|ALL)_PROXY)$/;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => keep.test(k)));
}

/**
 * The PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES that sends the engine (and the plugin's launcher,
 * which honours it as the engine does) from `pluginDownloadURL` to the releases of
 * `repositoryUrl` at GitHub's layout (`<repositoryUrl>/releases/download/v<version>/<asset>`).
 * @param {string} pluginDownloadURL the schema's
 * @param {string} repositoryUrl e.g. `http://127.0.0.1:<port>/clouddb/pulumi-clouddb`
 */
function downloadOverride(pluginDownloadURL, repositoryUrl) {
  return `^${pluginDownloadURL.replace(/[.]/g, "\\.")}=${repositoryUrl}/releases/download/v\${VERSION}`;
}

/**
 * A fresh HOME for one path, and the environment its commands run in.
 * @param {{
 *   base: string, name: string, clone: string[], pulumiBin: string,
 *   node: "24" | "machine" | "none", node24Dir: string,
 *   npmRegistry: string, pipIndex: string, goProxyDir: string, assetsUrl: string,
 *   pluginDownloadURL: string, caches: string,
 * }} o
 */
function userHome(o) {
  const home = path.join(o.base, o.name, "home");
  fs.mkdirSync(home, { recursive: true });
  const pulumiBin = path.join(home, ".pulumi", "bin");
  for (const f of fs.readdirSync(o.pulumiBin)) linkOrCopy(path.join(o.pulumiBin, f), path.join(pulumiBin, f));
  const nodeDirs = o.node === "24" ? [o.node24Dir] : [];
  const goEnv = JSON.parse(spawnSync("go", ["env", "-json", "GOPROXY", "GOMODCACHE", "GOCACHE"], { encoding: "utf8" }).stdout || "{}");
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...machineEnv(),
    LANG: process.env.LANG ?? "C.UTF-8",
    HOME: home,
    // The CLI finds its home from the user database, not HOME: a new user's own is ~/.pulumi.
    PULUMI_HOME: path.join(home, ".pulumi"),
    PATH: [pulumiBin, ...nodeDirs, ...userPath(o.base, o.clone, o.node === "none")].join(path.delimiter),
    NO_COLOR: "1",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_CONFIG_PASSPHRASE: "first-day",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(o.pluginDownloadURL, o.assetsUrl),
    npm_config_registry: o.npmRegistry,
    npm_config_cache: path.join(o.caches, "npm"),
    npm_config_prefer_online: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    PIP_INDEX_URL: o.pipIndex,
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    GOPROXY: `file://${o.goProxyDir},${goEnv.GOPROXY || "https://proxy.golang.org"}`,
    GONOSUMDB: "github.com/clouddb/pulumi-clouddb",
    GOMODCACHE: goEnv.GOMODCACHE,
    GOCACHE: goEnv.GOCACHE,
    GOTOOLCHAIN: "local",
    GOFLAGS: "",
  };
  return { home, env };
}

/**
 * Fails when any of `env`'s values, or any file under `dirs`, names a path of the clone.
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} dirs
 * @param {string[]} clone
 */
function checkNoClone(env, dirs, clone) {
  const inEnv = Object.entries(env).filter(([, v]) => clone.some((c) => (v ?? "").includes(c)));
  if (inEnv.length > 0) throw new Error(`the user's environment names the clone: ${inEnv.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const grep = spawnSync("grep", ["-rlF", ...clone.flatMap((c) => ["-e", c]), ...dirs], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (grep.status === 0)
    throw new Error(`installed files name the clone (${clone.join(", ")}):\n${grep.stdout.split("\n").slice(0, 20).join("\n")}`);
  if (grep.status !== 1) throw new Error(`grep failed: ${grep.stderr}`);
}

module.exports = { userHome, checkNoClone, linkOrCopy, downloadOverride };
