/**
 * Jest test environment: Node's, plus closing the inspector sessions a test file opened,
 * once the file is done (after its last `afterAll`).
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

class ClosingInspectorSessions extends TestEnvironment {
  /** The sessions connected while this test file ran. */
  sessions = [];
  /** Puts back the original `inspector.Session.prototype.connect`. */
  restoreConnect = () => undefined;

  async setup() {
    await super.setup();
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
  }
}

module.exports = ClosingInspectorSessions;
