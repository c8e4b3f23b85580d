/** The identity operation of the API description (contract/api/auth.ts). */
import type { ReportedClock } from "./clock";
import type { Credentials } from "./credentials";
import type { AuthenticatedCall } from "./operation-handlers";

/** The handler of `getAuthInfo`: who the caller's credential is, `created` in the reported clock. */
export function authOperations(credentials: Credentials, clock: ReportedClock) {
  return {
    getAuthInfo: ({ principal }: AuthenticatedCall<"getAuthInfo">) => credentials.authInfo(principal, (t) => clock.report(t)),
  };
}
