/**
 * What the core tells the user: an adoption, a delete that leaves an adopted resource in the
 * cloud, a create taken over or resumed, a value the API does not show readably, a journal
 * that cannot be kept. The core says it here, once, as a severity and a text; the host sets
 * where it goes ({@link setUserLogSink}). The dynamic host keeps the default, a line on
 * standard error (`clouddb: <text>`, `warning: clouddb: <text>`), which Pulumi's
 * dynamic-provider host passes to the CLI; the native plugin sends each to the engine's Log,
 * under the resource whose call is running (native/engineLog.ts). Nothing is parsed back
 * from text.
 */

/** How much a message to the user matters (an error is no message: it is the call's answer). */
export type UserLogSeverity = "info" | "warning";

/** Where the core's messages to the user go: `message` is the text alone, without `clouddb:`. */
export type UserLogSink = (severity: UserLogSeverity, message: string) => void;

/** The dynamic host's sink: a line on standard error, as Pulumi's dynamic-provider host shows it. */
export const STDERR_LINES: UserLogSink = (severity, message) => {
  console.error(`${severity === "warning" ? "warning: " : ""}clouddb: ${message}`);
};

let sink: UserLogSink = STDERR_LINES;

/** Sends the core's messages to `to` from now on (the native host's engine Log); returns the function that puts the previous sink back. */
export function setUserLogSink(to: UserLogSink): () => void {
  const before = sink;
  sink = to;
  return () => {
    sink = before;
  };
}

/** Tells the user `message`: what the core does that they should know. */
export function tellUser(message: string): void {
  sink("info", message);
}

/** Warns the user: `message` says what may need their attention. */
export function warnUser(message: string): void {
  sink("warning", message);
}
