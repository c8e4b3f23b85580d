/**
 * The client's errors as a user of a resource reads them. The client names its own method
 * (`operation listVpcs`) and options (`apiUrl`), which is right for a program calling the
 * client; through a resource, the user did a create, read, update or delete and set
 * `clouddb:*` config. So an API that cannot be reached, a key it refuses (401) and a
 * project the key may not reach (403) say what the user was doing and which setting to
 * check, with its variable.
 */
import { AuthenticationError, CancelledError, NetworkError, NotFoundError, PermissionError, RateLimitError } from "../client/errors";
import { CONFIG_KEYS } from "./settings";
import { describeMs, longerTimeoutAdvice } from "./timeouts";

const VERBS = { create: "creating", read: "reading", update: "updating", delete: "deleting" } as const;

/** A provider operation, as the engine calls it. */
export type UserOperation = keyof typeof VERBS;

/** The `timeouts` entry that bounds what {@link userOperation} described as `doing` (a read waits as an update). */
export function timeoutOf(doing: string): OperationTiming["timeout"] {
  return doing.startsWith(VERBS.create) ? "create" : doing.startsWith(VERBS.delete) ? "delete" : "update";
}

/**
 * What the user is doing, in a message's words: `creating Service "db"`, `deleting Vpc 1234`.
 *
 * @param owner the SDK's `__owner` input (`<project>/<stack>/<type>/<name>`), when the call has the inputs
 * @param id the resource's id, once it has one
 */
export function userOperation(operation: UserOperation, kind: string, owner: unknown, id?: string): string {
  const name = typeof owner === "string" ? owner.split("/").slice(3).join("/") : "";
  return `${VERBS[operation]} ${kind}${name === "" ? "" : ` "${name}"`}${id === undefined ? "" : ` ${id}`}`;
}

/** `clouddb:apiUrl / CLOUDDB_API_URL`. */
function setting(k: "apiUrl" | "apiKey" | "projectId"): string {
  return `${CONFIG_KEYS[k].key} / ${CONFIG_KEYS[k].env}`;
}

/** The message of a low-level error (the cause of a {@link NetworkError}). */
function messageOf(cause: unknown): string {
  const m = (cause as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : String(cause);
}

/** How long the operation under way could wait: which of the resource's `timeouts`, and how long that is. */
export interface OperationTiming {
  /** The `timeouts` entry (and `clouddb:<operation>Timeout` key) that bounds it. */
  readonly timeout: "create" | "update" | "delete";
  /** Its length, ms. */
  readonly ms: number;
}

/** What a 429 that outlasted the operation says to a user of the resource: the limit was the cause, and what to do. */
function rateLimited(error: RateLimitError, doing: string, timing: OperationTiming | undefined): string {
  const asked = error.retryAfterSeconds;
  const bound = timing === undefined ? "" : ` (${timing.timeout}: ${describeMs(timing.ms)})`;
  const ran =
    asked !== undefined && (timing === undefined || asked * 1_000 > timing.ms)
      ? error.heldBy === "schedule"
        ? `: its turn to be sent came ${asked} s later than its timeouts allow${bound}`
        : `: the API asked to wait ${asked} s (Retry-After), longer than its timeouts allow${bound}`
      : timing === undefined
        ? ""
        : ` until its timeouts ran out${bound}`;
  const limit = error.limitPerSecond === undefined ? "" : ` (about ${Math.round(error.limitPerSecond * 10) / 10} requests a second)`;
  const shared =
    error.sharedWith !== undefined && error.sharedWith > 1
      ? ` ${error.sharedWith} processes on this machine (other stacks) share this API key's limit${limit}.`
      : error.limitPerSecond === undefined
        ? ""
        : ` The API limits this key to${limit.replace(/^ \(about/, " about").replace(/\)$/, "")}.`;
  const advice = longerTimeoutAdvice(timing?.timeout ?? "create");
  const longer =
    timing === undefined
      ? "Give the resource longer timeouts (`timeouts`, or `customTimeouts` on the native plugin)"
      : advice.charAt(0).toUpperCase() + advice.slice(1);
  return (
    `The API's rate limit held ${doing} back${ran}: ${error.apiMessage.replace(/[.\s]+$/, "")} (${error.status} ${error.code}).${shared} ` +
    `${longer}, or run fewer stacks at once with this API key.`
  );
}

/**
 * `error` with the message a user of the resource should read, when it is one whose
 * client message names the client's method and options; any other error as it is. The
 * error keeps its class, code and fields (`operation` still names the client's method).
 *
 * @param doing what the user was doing, from {@link userOperation}
 * @param timing how long the operation could wait (for a 429 that outlasted it)
 */
export function inUserTerms(error: unknown, doing: string, timing?: OperationTiming): unknown {
  if (NetworkError.isInstance(error) && error.tlsAdvice !== undefined) {
    error.message =
      `TLS with the API at ${error.url} failed while ${doing}: ${messageOf(error.cause).split("\n")[0]} [${error.causeCode}]: ` +
      `${error.tlsAdvice.replace(/apiUrl \/ CLOUDDB_API_URL/, setting("apiUrl"))}. Nothing was sent.`;
  } else if (NetworkError.isInstance(error)) {
    error.message =
      `Could not reach the API at ${error.url} while ${doing}: ${messageOf(error.cause)}` +
      `${error.causeCode === undefined ? "" : ` [${error.causeCode}]`}. Check ${setting("apiUrl")} and the network.`;
  } else if (AuthenticationError.isInstance(error)) {
    error.message =
      `The API refused the API key while ${doing}: ${error.apiMessage.replace(/[.\s]+$/, "")} (${error.status} ${error.code}). ` +
      `Check ${setting("apiKey")} (\`pulumi config set --secret ${CONFIG_KEYS.apiKey.key} <key>\`).`;
  } else if (RateLimitError.isInstance(error)) {
    error.message = rateLimited(error, doing, timing);
  } else if (CancelledError.isInstance(error)) {
    error.message = `Stopped while ${doing}: ${error.why}.`;
  } else if (PermissionError.isInstance(error)) {
    const project = error.projectId === undefined ? "the project" : `project ${error.projectId}`;
    const refused = error.request === undefined ? "" : `; it refused ${error.request}`;
    error.message =
      `The API key may not reach ${project} while ${doing}: ${error.apiMessage.replace(/[.\s]+$/, "")} (${error.status} ${error.code}${refused}). ` +
      `Check the resource's projectId, ${setting("projectId")}, and which project the key (${setting("apiKey")}) belongs to.`;
  }
  return error;
}

/** The error for a lookup (`X.get`) of an id that does not exist (Pulumi itself would take an empty answer as found). */
export function lookupNotFound(kind: string, id: string): NotFoundError {
  return new NotFoundError({
    status: 404,
    code: "NOT_FOUND",
    apiMessage: `No ${kind} with id ${JSON.stringify(id)}`,
    operation: `${kind}.get`,
    hint: `${kind}.get looks up an existing ${kind}: check the id, and the projectId (or clouddb:projectId) it belongs to.`,
  });
}
