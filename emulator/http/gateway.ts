/**
 * What a gateway between a client and a real API answers on its own (CONTRACT.md, "Answers
 * seen from the real API family": gateways hold requests, redirect, serve HTML error pages
 * and stamp `Date` with their own clock): the answers the fault rules' gateway modes send
 * instead of the API's, and the memory of earlier answers a stale list is served from.
 */
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

/** A redirect to `location` with `status`, without a body. */
export function redirectAnswer(status: number, location: string): Answer {
  return { status, headers: { Location: location } };
}

/** The answer with every item of its array body shown twice (a list a gateway repeats). */
export function repeated(answer: Answer): Answer {
  if (!Array.isArray(answer.body)) return answer;
  return { ...answer, body: answer.body.flatMap((item: unknown) => [item, structuredClone(item)]) };
}

/** The last answer given to each path (GETs only), for stale lists. */
export class AnswerMemory {
  private readonly last = new Map<string, Answer>();

  /** Remembers `answer` as the latest to a GET of `path`; returns the one it replaces, if any. */
  swap(path: string, answer: Answer): Answer | undefined {
    const before = this.last.get(path);
    this.last.set(path, answer);
    return before;
  }

  /** Forgets every answer. */
  clear(): void {
    this.last.clear();
  }
}
