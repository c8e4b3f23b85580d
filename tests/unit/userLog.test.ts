/**
 * The core's messages to the user (framework/userLog.ts) as each host delivers them: the
 * dynamic host's as `clouddb:` lines on standard error (what Pulumi's dynamic-provider host
 * shows), the native host's straight to the engine's Log under the resource whose call is
 * running, scrubbed of secrets, with no line of standard error parsed back into a message.
 */
import { registerSecret } from "../../provider/client/redact";
import { tellUser, warnUser } from "../../provider/framework/userLog";
import { routeConsole, withinResource, type LogSink, type Severity } from "../../provider/native/engineLog";

/** What `console.error` printed while `fn` ran, each call as one line. */
async function printed(fn: () => Promise<void> | void): Promise<string[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe("the core's messages to the user", () => {
  it("are lines on standard error in the dynamic host, `clouddb:` and `warning: clouddb:`", async () => {
    expect(
      await printed(() => {
        tellUser("Service 12 is not deleted: the stack adopted it");
        warnUser("the journal of creates in flight cannot be kept in /x");
      }),
    ).toEqual([
      "clouddb: Service 12 is not deleted: the stack adopted it",
      "warning: clouddb: the journal of creates in flight cannot be kept in /x",
    ]);
  });

  it("go to the engine's Log in the native host, under the running call's resource, as said and scrubbed; only they do", async () => {
    const logged: Array<{ severity: Severity; message: string; urn?: string }> = [];
    const engine: LogSink = {
      log: async (severity, message, urn) => void logged.push({ severity, message, urn }),
    };
    registerSecret("s3cr3t-key-for-userLog");
    const stderr = await printed(async () => {
      const undo = routeConsole(engine);
      try {
        await withinResource("urn:pulumi:dev::p::clouddb:index:Service::db", async () => {
          tellUser("Service 12 (adoptId) is adopted");
          // Said by the core: sent as said, even text that looks like a line of the dynamic host's.
          warnUser("clouddb: an odd value, apiKey s3cr3t-key-for-userLog");
          // Printed by other code: stays on standard error (scrubbed), never taken for a message to the user.
          console.error("clouddb: a line some other code printed, s3cr3t-key-for-userLog");
        });
      } finally {
        undo();
      }
      // Undone: the dynamic host's lines again.
      tellUser("after");
    });
    const urn = "urn:pulumi:dev::p::clouddb:index:Service::db";
    expect(logged).toEqual([
      { severity: "info", message: "Service 12 (adoptId) is adopted", urn },
      { severity: "warning", message: expect.stringMatching(/^clouddb: an odd value, apiKey (?!s3cr3t)/), urn },
    ]);
    expect(stderr).toEqual([expect.stringMatching(/^clouddb: a line some other code printed, (?!s3cr3t)/), "clouddb: after"]);
  });
});
