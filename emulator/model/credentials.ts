/**
 * The emulator's credentials: one personal access token bound to the default project,
 * and one OAuth user token reaching the default and a second project.
 */

/** Who is calling. */
export interface Principal {
  /** `apiKey` for the PAT, `oauth` for the OAuth user token. */
  readonly type: "apiKey" | "oauth";
  /** Projects the credential reaches. */
  readonly projectIds: readonly string[];
}

/** Body of `GET /auth/info` (SPEC 2.1). */
export type AuthInfoBody =
  | {
      type: "apiKey";
      apiKey: {
        public_key: string;
        name: string;
        created: string;
        project: { id: string; name: string; plan_type: string };
        issuing_user: { id: string; email: string; name: string };
      };
    }
  | { type: "oauth"; oauth: { user: { id: string; email: string; name: string } } };

/** Settings of {@link Credentials}. */
export interface CredentialSettings {
  /** Project reached by both tokens. */
  projectId: string;
  /** Project reached by the OAuth token only. */
  secondProjectId: string;
  /** The personal access token. */
  pat: string;
  /** The OAuth user token. */
  oauthToken: string;
  /** When the PAT was issued, epoch milliseconds. */
  createdAt: number;
}

const USER = { id: "1001", email: "developer@clouddb.local", name: "Emulator Developer" };

/** Recognises tokens and says which projects they reach. */
export class Credentials {
  /** @param settings - projects, tokens and issue time. */
  constructor(readonly settings: CredentialSettings) {}

  /** The principal of `token`, or `undefined` when the token is unknown. */
  authenticate(token: string): Principal | undefined {
    const { pat, oauthToken, projectId, secondProjectId } = this.settings;
    if (token === pat) return { type: "apiKey", projectIds: [projectId] };
    if (token === oauthToken) return { type: "oauth", projectIds: [projectId, secondProjectId] };
    return undefined;
  }

  /** True when the principal may use the project. */
  canReach(principal: Principal, projectId: string): boolean {
    return principal.projectIds.includes(projectId);
  }

  /**
   * What `GET /auth/info` answers for the principal.
   * @param report - turns a time into the server's reported clock (identity by default).
   */
  authInfo(principal: Principal, report: (epochMs: number) => number = (t) => t): AuthInfoBody {
    if (principal.type === "oauth") return { type: "oauth", oauth: { user: { ...USER } } };
    return {
      type: "apiKey",
      apiKey: {
        public_key: `pk_${this.settings.projectId}`,
        name: "clouddb-emulator",
        created: new Date(report(this.settings.createdAt)).toISOString(),
        project: { id: this.settings.projectId, name: "Emulator project", plan_type: "FREE" },
        issuing_user: { ...USER },
      },
    };
  }
}
