/**
 * Jest setup (each test file): no PromiseRejectionHandledWarning in the output. During
 * `up` and `preview` the harness reports a failed registration's rejected promises
 * itself (see harness/runtime.ts); the Pulumi SDK attaches its own handlers to some
 * of them a moment later, which Node reports as a warning on stderr unless the process
 * listens for `rejectionHandled`. Listening changes nothing else: a rejection nobody
 * handles still fails the run as before.
 */
"use strict";
const vm = require("vm");

// The process of the outermost context: jest gives each test file a copy of `process`.
const realProcess = vm.runInThisContext("process");
if (realProcess.listenerCount("rejectionHandled") === 0) realProcess.on("rejectionHandled", () => undefined);
