#!/usr/bin/env node
/**
 * `npm run up | preview | refresh | destroy`: runs the real `pulumi` CLI on the
 * quickstart stack (Pulumi.yaml at the top) against the local emulator.
 *
 * 1. Stops at once, saying how to install it, when `pulumi` is not on PATH.
 * 2. Reuses the emulator recorded in .clouddb/emulator.json if it still answers, else
 *    starts one in the background (persistent, in .clouddb/emulator-data).
 *    Set CLOUDDB_API_URL, CLOUDDB_API_KEY and CLOUDDB_PROJECT_ID to use another API.
 * 3. Uses a local file backend (.clouddb/state) and a passphrase: nothing to sign into.
 * 4. Points the stack `local` at the API (`clouddb:apiUrl`, `clouddb:projectId`, and
 *    `clouddb:apiKey` as a secret) and runs the command. Extra arguments pass through.
 *
 * `npm run emulator:stop` stops the background emulator.
 */
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const work = path.join(root, ".clouddb");
const emulatorFile = path.join(work, "emulator.json");
const COMMANDS = { up: ["up", "--yes"], preview: ["preview"], refresh: ["refresh", "--yes"], destroy: ["destroy", "--yes"] };

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function hasPulumi() {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).error === undefined;
}

async function answers(api) {
  try {
    const res = await fetch(`${api.CLOUDDB_API_URL}/auth/info`, {
      headers: { authorization: `Bearer ${api.CLOUDDB_API_KEY}` },
      signal: AbortSignal.timeout(2000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function startEmulator() {
  const cli = path.join(root, "dist", "emulator", "cli.js");
  if (!fs.existsSync(cli)) {
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) fail("npm run build failed; fix the build, then run this again.");
  }
  const clockScale = process.env.CLOUDDB_CLOCK_SCALE ?? "0.2";
  const args = [cli, "--port", "0", "--project-id", process.env.CLOUDDB_EMULATOR_PROJECT ?? "quickstart", "--data-dir", path.join(work, "emulator-data"), "--clock-scale", clockScale];
  const log = fs.openSync(path.join(work, "emulator.log"), "a");
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", log] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the emulator did not start within 10 s; see .clouddb/emulator.log")), 10_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const api = Object.fromEntries(
        out.split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).trim()]),
      );
      if (api.CLOUDDB_API_URL && api.CLOUDDB_EMULATOR_URL) {
        clearTimeout(timer);
        child.stdout.destroy();
        child.unref();
        api.pid = child.pid;
        fs.writeFileSync(emulatorFile, JSON.stringify(api, null, 2));
        resolve(api);
      }
    });
    child.on("exit", (code) => reject(new Error(`the emulator exited with code ${code}; see .clouddb/emulator.log`)));
  });
}

async function api() {
  const env = process.env;
  if (env.CLOUDDB_API_URL && env.CLOUDDB_API_KEY && env.CLOUDDB_PROJECT_ID) {
    return { CLOUDDB_API_URL: env.CLOUDDB_API_URL, CLOUDDB_API_KEY: env.CLOUDDB_API_KEY, CLOUDDB_PROJECT_ID: env.CLOUDDB_PROJECT_ID };
  }
  fs.mkdirSync(work, { recursive: true });
  if (fs.existsSync(emulatorFile)) {
    const known = JSON.parse(fs.readFileSync(emulatorFile, "utf8"));
    if (await answers(known)) return known;
  }
  const started = await startEmulator();
  process.stderr.write(`Started the emulator at ${started.CLOUDDB_EMULATOR_URL} (pid ${started.pid}); npm run emulator:stop stops it.\n`);
  return started;
}

function stopEmulator() {
  if (!fs.existsSync(emulatorFile)) return process.stderr.write("No emulator recorded in .clouddb/emulator.json.\n");
  const { pid } = JSON.parse(fs.readFileSync(emulatorFile, "utf8"));
  try {
    process.kill(pid, "SIGTERM");
    process.stderr.write(`Stopped the emulator (pid ${pid}).\n`);
  } catch {
    process.stderr.write(`The emulator (pid ${pid}) was not running.\n`);
  }
  fs.rmSync(emulatorFile, { force: true });
}

function pulumi(args, env, options = {}) {
  const result = spawnSync("pulumi", args, { cwd: root, env, stdio: options.quiet ? "pipe" : "inherit" });
  if (result.status !== 0 && !options.allowFailure) process.exit(result.status ?? 1);
  return result;
}

async function main() {
  const [command, ...extra] = process.argv.slice(2);
  if (command === "emulator:stop") return stopEmulator();
  if (!COMMANDS[command]) fail(`usage: node scripts/stack.js ${Object.keys(COMMANDS).join("|")}|emulator:stop [pulumi args]`);
  if (!hasPulumi()) {
    fail(
      "The pulumi CLI is not on PATH, and `npm run " + command + "` runs it.\n" +
        "Install it (https://www.pulumi.com/docs/install/), for example:\n" +
        "  curl -fsSL https://get.pulumi.com | sh && export PATH=$HOME/.pulumi/bin:$PATH\n" +
        "then run `npm run " + command + "` again. Without the CLI, `npm test` still runs every example\n" +
        "through Pulumi's real dynamic-provider host against the emulator.",
    );
  }
  const target = await api();
  fs.mkdirSync(path.join(work, "state"), { recursive: true });
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "clouddb-local",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const stack = process.env.CLOUDDB_STACK ?? "local";
  if (pulumi(["stack", "select", stack], env, { quiet: true, allowFailure: true }).status !== 0) {
    pulumi(["stack", "init", stack], env);
  }
  pulumi(["config", "set", "clouddb:apiUrl", target.CLOUDDB_API_URL], env);
  pulumi(["config", "set", "clouddb:projectId", target.CLOUDDB_PROJECT_ID], env);
  pulumi(["config", "set", "--secret", "clouddb:apiKey", target.CLOUDDB_API_KEY], env);
  pulumi([...COMMANDS[command], ...extra], env);
}

main().catch((e) => fail(`npm run: ${e.message}`));
