/**
 * A credential the API refused stops the client at the first refusal (CONTRACT.md
 * "Authentication"): after a 401 nothing more is sent with the key, and after a 403 nothing
 * more is sent to that project (a key reaches a project or does not). The requests that come
 * later fail at once, unsent, with the refusal's own status and words. Until an answer has
 * shown that the API takes the key for a project, the client's writes to it go one at a time,
 * each after the answer of the one before: a create that follows a refused read (its look-alike
 * list) is never sent, nor are the nineteen others of a fleet's twenty.
 *
 * Kept for the client's life: the key cannot change within it (a provider makes a client per
 * configuration, in a process that lives for one `pulumi up`); a new client asks again.
 */

/** A refusal the client met: what it answered, to what, and when. */
export interface Refusal {
  /** 401 (the key) or 403 (the key, for one project). */
  readonly status: 401 | 403;
  /** The body of the answer, as parsed (the API's code and message). */
  readonly body: unknown;
  /** The request it refused, `<METHOD> <path>`. */
  readonly request: string;
  /** When it came (epoch ms). */
  readonly at: number;
}

/** What the guard needs of a request: its method, its path, its project. */
export interface GuardedRequest {
  readonly method: string;
  readonly path: string;
  readonly projectId?: string;
}

/** Answers that say nothing of the key: a limit (429), trouble (5xx), none at all. */
function saysNothing(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}

/** The refusals of one client's key (see the module comment). */
export class RefusedCredentials {
  private key: Refusal | undefined;
  private readonly projects = new Map<string, Refusal>();
  /** Projects (and "" for requests of none) for which an answer showed the key is taken. */
  private readonly proven = new Set<string>();
  /** Per project not yet proven: the end of the last write let through (the next one waits for it). */
  private readonly turns = new Map<string, Promise<void>>();

  /** The refusal that stops a request to `projectId` (of any project when the key itself was refused), if any. */
  refusalFor(projectId: string | undefined): Refusal | undefined {
    return this.key ?? (projectId === undefined ? undefined : this.projects.get(projectId));
  }

  /**
   * Resolves when `req` may be sent: at once for a read, or for a write once the key is proven
   * for its project; else after the writes before it have been answered. The caller must then
   * call {@link RefusedCredentials.settle} (the returned function) once its answer came (or none
   * will). Never rejects.
   */
  async admit(req: GuardedRequest): Promise<(status: number | undefined, body?: unknown) => void> {
    const scope = req.projectId ?? "";
    const settle = (status: number | undefined, body?: unknown): void => this.settle(req, status, body);
    if (req.method === "GET" || this.proven.has(scope)) return settle;
    const before = this.turns.get(scope) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.turns.set(scope, mine);
    await before;
    return (status, body) => {
      settle(status, body);
      if (this.turns.get(scope) === mine) this.turns.delete(scope);
      done();
    };
  }

  /** Records what an answer said of the key: a refusal, or that the key is taken for the request's project. */
  private settle(req: GuardedRequest, status: number | undefined, body: unknown): void {
    const refusal = (s: 401 | 403): Refusal => ({ status: s, body, request: `${req.method} ${req.path}`, at: Date.now() });
    if (status === 401) this.key ??= refusal(401);
    else if (status === 403 && req.projectId !== undefined && !this.projects.has(req.projectId)) {
      this.projects.set(req.projectId, refusal(403));
    } else if (status !== 403 && !saysNothing(status)) {
      this.proven.add(req.projectId ?? "");
    }
  }
}
