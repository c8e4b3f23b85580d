/**
 * Answers that do not come from the API but from something between the client and it
 * (CONTRACT.md "Answers seen from the real API family": gateways redirect and serve HTML
 * pages of their own): a redirect ({@link RedirectError}) and a 2xx page that is not the
 * API's JSON ({@link NotTheApiError}). Neither is "the API accepted it".
 */
import { ClientErrorCode, ClouddbError, hasKind, type ClientErrorCodeValue } from "./errorBase";
import { describeReceived } from "./redact";

/** `operation createService` or `operation createService, step listServices`. */
function operationText(operation: string, step: string | undefined): string {
  return step === undefined || step === operation ? `operation ${operation}` : `operation ${operation}, step ${step}`;
}

/** What every answer of something between the client and the API is built from. */
export interface GatewayAnswerInit {
  /** Client method name the caller ran. */
  operation: string;
  /** The request whose answer it was, when not the operation's own. */
  step?: string;
  /** The URL requested. */
  url: string;
  /** The answer's status. */
  status: number;
}

/** An answer that came from something between the client and the API, not from the API. */
export abstract class GatewayAnswerError extends ClouddbError {
  /** Client method name the caller ran. */
  readonly operation: string;
  /** The answer's status. */
  readonly status: number;

  /** Builds the error with its message and code; `init` says which request met which answer. */
  protected constructor(message: string, code: ClientErrorCodeValue, init: GatewayAnswerInit) {
    super(message, code);
    this.operation = init.operation;
    this.status = init.status;
  }
}

/** What a {@link RedirectError} is built from (its status: 301, 302, 303, 307, 308, ...). */
export interface RedirectInit extends GatewayAnswerInit {
  /** Where it points (`Location`), when the answer said. */
  location: string | undefined;
}

/**
 * The URL answered a redirect. The client never follows one (a create must not be sent
 * twice, and the API key must not go to another host), so the request was not carried
 * out there: check `apiUrl`. Not retried.
 */
export class RedirectError extends GatewayAnswerError {
  static override readonly kind: string = "RedirectError";
  /** Where it points, when the answer said (`Location`). */
  readonly location: string | undefined;

  /** Builds the error; the message names the status, where it points, and what to check. */
  constructor(init: RedirectInit) {
    const where = init.location === undefined ? "without saying where (no Location header)" : `to ${init.location}`;
    super(
      `${init.url} answered ${init.status} (a redirect) ${where} (${operationText(init.operation, init.step)}): the request was not carried out ` +
        "there, and the client does not follow redirects (a create must not be sent twice, nor the API key to another address). " +
        "Check apiUrl / CLOUDDB_API_URL: set it to the API's own base URL (ending in /public/api/v1).",
      ClientErrorCode.Redirect,
      init,
    );
    this.location = init.location;
  }

  /** True when `obj` is a {@link RedirectError}. */
  static override isInstance(obj: unknown): obj is RedirectError {
    return hasKind(obj, RedirectError.kind);
  }
}

/** What a {@link NotTheApiError} is built from (its status: 2xx). */
export interface NotTheApiInit extends GatewayAnswerInit {
  /** The answer's `Content-Type`, when it had one. */
  contentType: string | undefined;
  /** The answer's body text. */
  body: string;
}

/** The `<title>` of an HTML page, when it has one. */
function titleOf(html: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  const title = match?.[1]?.replace(/\s+/g, " ").trim();
  return title === undefined || title === "" ? undefined : title;
}

/**
 * A 2xx answer that is not the API's: its body is not JSON and it does not claim to be
 * (a web application firewall's or a proxy's own HTML page). The API did not say it
 * accepted anything; whether the request got through is unknown, so a create settles it
 * by looking (createRecovery.ts) and is never sent again through the same gateway. Not retried.
 */
export class NotTheApiError extends GatewayAnswerError {
  static override readonly kind: string = "NotTheApiError";
  /** The answer's `Content-Type`, when it had one. */
  readonly contentType: string | undefined;
  /** The page's title, when it is HTML and has one. */
  readonly title: string | undefined;

  /** Builds the error; the message names the status, the content type and the page's title. */
  constructor(init: NotTheApiInit) {
    const title = titleOf(init.body);
    const what =
      title === undefined ? `a ${init.contentType ?? "non-JSON"} body ${describeReceived(init.body)}` : `an HTML page titled "${title}"`;
    super(
      `${init.url} answered ${init.status} with ${what} (${operationText(init.operation, init.step)}): not the API's answer but a page ` +
        "of something between this machine and the API (a web application firewall, a proxy, a captive portal). The API did not say " +
        "it accepted the request. Check what stands between this machine and the API, and apiUrl / CLOUDDB_API_URL.",
      ClientErrorCode.NotTheApi,
      init,
    );
    this.contentType = init.contentType;
    this.title = title;
  }

  /** True when `obj` is a {@link NotTheApiError}. */
  static override isInstance(obj: unknown): obj is NotTheApiError {
    return hasKind(obj, NotTheApiError.kind);
  }
}
