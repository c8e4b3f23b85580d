/**
 * What a gateway between a client and a real API answers on its own (CONTRACT.md, "Answers
 * seen from the real API family": gateways hold requests, redirect, serve HTML error pages
 * and stamp `Date` with their own clock): the answers the fault rules' gateway modes send
 * instead of the API's, and the memory of earlier answers a stale or lagging list is served from.
 */
import { STATUS_CODES } from "node:http";
import type { Answer } from "./answer";

/** The page a web application firewall serves, with 200, instead of passing the request on. */
export const WAF_PAGE_TITLE = "Request blocked";

/** A firewall's own 200 HTML page: what a client gets when a WAF stops its request. */
export function wafPage(): Answer {
  return {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    text:
      `<!DOCTYPE html><html><head><title>${WAF_PAGE_TITLE}</title></head>` +
      "<body><h1>Request blocked</h1><p>The request was blocked by the web application firewall. Reference: 0000-emulator</p></body></html>",
  };
}

/** `text` with the characters HTML gives a meaning escaped, as a page quoting it writes it. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A gateway's own error page with `status` that quotes the request it refused, as many do:
 * its line, its body as received (a JSON body: its strings JSON-escaped) and the body's
 * fields form-encoded (`name=value&...`, as the gateway logged them), each HTML-escaped.
 */
export function echoPage(status: number, method: string, path: string, body: Buffer): Answer {
  const text = body.toString("utf8");
  let form = "";
  try {
    const fields = JSON.parse(text) as unknown;
    if (fields !== null && typeof fields === "object" && !Array.isArray(fields)) {
      const entries = Object.entries(fields).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]);
      form = new URLSearchParams(entries).toString();
    }
  } catch {
    // not JSON: quoted as received only
  }
  const reason = STATUS_CODES[status] ?? "Error";
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    text:
      `<!DOCTYPE html><html><head><title>${status} ${reason}</title></head><body><h1>${reason}</h1>` +
      `<p>The gateway refused this request:</p><pre>${escapeHtml(`${method} ${path}\n\n${text}`)}</pre>` +
      `<p>Fields: <code>${escapeHtml(form)}</code></p></body></html>`,
  };
}

/** A redirect to `location` with `status`, without a body. */
export function redirectAnswer(status: number, location: string): Answer {
  return { status, headers: { Location: location } };
}

/** The answer with every item of its array body shown twice (a list a gateway repeats). */
export function repeated(answer: Answer): Answer {
  if (!Array.isArray(answer.body)) return answer;
  return { ...answer, body: answer.body.flatMap((item: unknown) => [item, structuredClone(item)]) };
}

/** How many answers of a list the memory keeps per path, and for how long, for lagging lists. */
const HISTORY = { answers: 32, ms: 10 * 60_000 };

/**
 * The answers given to each path (GETs only): the last one, for stale lists, and the recent
 * answers of a list (an array body) with when each was given, for lagging ones.
 */
export class AnswerMemory {
  private readonly last = new Map<string, Answer>();
  private readonly history = new Map<string, Array<{ at: number; answer: Answer }>>();

  /** Remembers `answer` as the latest to a GET of `path`, given now; returns the one it replaces, if any. */
  swap(path: string, answer: Answer): Answer | undefined {
    const before = this.last.get(path);
    this.last.set(path, answer);
    if (Array.isArray(answer.body)) {
      const now = Date.now();
      const kept = (this.history.get(path) ?? []).filter((h) => h.at >= now - HISTORY.ms).slice(-(HISTORY.answers - 1));
      this.history.set(path, [...kept, { at: now, answer }]);
    }
    return before;
  }

  /**
   * The list `path` showed `lagMs` ago: the latest answer given at least that long before
   * now, else the earliest one remembered (a list never lags less than what it has shown).
   */
  lagging(path: string, lagMs: number): Answer | undefined {
    const answers = this.history.get(path) ?? [];
    const cutoff = Date.now() - lagMs;
    return answers.filter((h) => h.at <= cutoff).pop()?.answer ?? answers[0]?.answer;
  }

  /** Forgets every answer. */
  clear(): void {
    this.last.clear();
    this.history.clear();
  }
}
