/**
 * The suite's test environment (tests/setup/inspectorSessions.js) disconnects the V8
 * inspector sessions a test file connected (Pulumi's closure serialization opens one per
 * copy of @pulumi/pulumi and never closes it), so that workers exit in time; sessions made
 * before the file ran are left alone.
 */
import * as inspector from "inspector";

const ClosingInspectorSessions = require("../setup/inspectorSessions.js") as new (
  config: { projectConfig: object; globalConfig: object },
  context: { console: Console; docblockPragmas: object; testPath: string },
) => { setup(): Promise<void>; teardown(): Promise<void> };

/** Whether `session` still answers: a disconnected one throws at `post`. */
function connected(session: inspector.Session): boolean {
  try {
    session.post("Runtime.evaluate", { expression: "1" });
    return true;
  } catch {
    return false;
  }
}

it("disconnects the sessions connected while the file ran, and only those", async () => {
  const before = new inspector.Session();
  before.connect();
  const env = new ClosingInspectorSessions(
    { projectConfig: { testEnvironmentOptions: {} }, globalConfig: {} },
    { console, docblockPragmas: {}, testPath: __filename },
  );
  await env.setup();
  const during = new inspector.Session();
  during.connect();
  expect(connected(during)).toBe(true);
  await env.teardown();
  expect(connected(during)).toBe(false);
  expect(connected(before)).toBe(true);
  before.disconnect();
});
