/**
 * Jest test environment: Node's, plus closing the inspector sessions a test file opened,
 * once the file is done (after its last `afterAll`), and waiting for the handles it opened
 * to close (see `awaitOwnHandles`).
 *
 * Why: `TestStack` runs Pulumi programs in the jest worker, and serializing a dynamic
 * provider (`pulumi.runtime.serializeFunction`) goes through the V8 inspector:
 * @pulumi/pulumi's runtime/closure/v8Hooks.js opens an `inspector.Session`, enables the
 * `Debugger` domain and keeps the session for the life of the module, never disconnecting
 * it. Jest gives every test file its own copy of @pulumi/pulumi, so a worker collects one
 * live debugger session per test file. Each session keeps every script the worker compiled,
 * and the remote objects Pulumi asked for (the serialized providers, with the test file's
 * modules behind them): a worker of a full run ends with a heap over 1 GB. Node disconnects
 * the sessions when the process ends, after the `exit` event, and each disconnect
 * (`V8DebuggerAgentImpl::disable`) walks all those scripts: measured with perf, the workers
 * spent more than jest-worker's 500 ms (FORCE_EXIT_DELAY) there, so jest killed them and
 * printed "A worker process has failed to exit gracefully". Closing each file's sessions
 * when the file ends keeps the worker's heap to one file's worth and its exit immediate.
 *
 * The sessions are recorded by wrapping `inspector.Session.prototype.connect` from `setup`
 * to `teardown` (a worker runs one test file at a time), because Pulumi does not expose its
 * session. A session is only disconnected after the file's last hook, when nothing in the
 * file can use it any more.
 */
"use strict";
const inspector = require("inspector");
const { TestEnvironment } = require("jest-environment-node");

/** How long a file's end waits for the handles it opened to close. */
const HANDLES_WAIT_MS = 2_000;

/** `now` less `before`, as multisets: what is open now that was not at the start. */
function beyond(now, before) {
  const left = [...before];
  return now.filter((kind) => {
    const i = left.indexOf(kind);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/**
 * What keeps this worker's event loop alive, but for the worker's own channels: its
 * standard streams (file descriptors 0 to 2: standard input is listed once a module has
 * touched `process.stdin`, as @pulumi/pulumi/automation does, though it holds nothing
 * open), and the IPC pipe to jest (a bare `Pipe` handle; what a test opens is a socket, a
 * server or a child process). One entry each, a timer as `timer`.
 */
function openHandles() {
  const ownStream = (h) => [0, 1, 2].includes(h._handle?.fd);
  const handles = process._getActiveHandles().filter((h) => !ownStream(h) && h.constructor.name !== "Pipe");
  const timers = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout");
  return [...handles.map(named), ...timers.map(() => "timer")];
}

/** A handle as the line naming a leak shows it. */
function named(h) {
  if (typeof h.spawnfile === "string") return `child process ${h.spawnfile} (pid ${h.pid})`;
  if (typeof h.address === "function" && typeof h.listening === "boolean") return `server ${JSON.stringify(h.address())}`;
  if (h.remotePort !== undefined) return `socket to ${h.remoteAddress}:${h.remotePort}`;
  return h.constructor.name;
}

class ClosingInspectorSessions extends TestEnvironment {
  /** The sessions connected while this test file ran. */
  sessions = [];
  /** What kept the worker's event loop alive before the file began. */
  handlesAtSetup = [];
  /** The test file, for the line naming what it left open. */
  testPath;

  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }
  /** Puts back the original `inspector.Session.prototype.connect`. */
  restoreConnect = () => undefined;

  async setup() {
    await super.setup();
    this.handlesAtSetup = openHandles();
    const sessions = this.sessions;
    const connect = inspector.Session.prototype.connect;
    inspector.Session.prototype.connect = function connectRecorded(...args) {
      sessions.push(this);
      return connect.apply(this, args);
    };
    this.restoreConnect = () => {
      inspector.Session.prototype.connect = connect;
    };
  }

  async teardown() {
    this.restoreConnect();
    for (const session of this.sessions.splice(0)) session.disconnect();
    await super.teardown();
    await this.awaitOwnHandles();
  }

  /**
   * Waits (at most {@link HANDLES_WAIT_MS}) until what keeps this worker's event loop alive is
   * back to what it was before the file began, and names what is left beyond it.
   *
   * Why: jest ends a worker by letting its event loop run dry; one that is still alive
   * 500 ms later (jest-worker's FORCE_EXIT_DELAY) is killed, and jest prints "A worker
   * process has failed to exit gracefully". A socket still closing or a timer still pending
   * from the worker's last file is enough. Waiting for the file's own handles to end makes
   * the file's end mean that; a handle still open after the wait is a leak, and the line
   * names the file and each handle (`process._getActiveHandles()`: Node's only list of them).
   */
  async awaitOwnHandles() {
    const left = () => beyond(openHandles(), this.handlesAtSetup);
    for (let waited = 0; waited < HANDLES_WAIT_MS && left().length > 0; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20).unref());
    }
    const still = left();
    if (still.length > 0) {
      process.stderr.write(`${this.testPath} left ${still.join(", ")} open ${HANDLES_WAIT_MS} ms after its end\n`);
    }
  }
}

module.exports = ClosingInspectorSessions;
