/** Reading the `Authorization: Bearer <token>` header. */
import type { Credentials, Principal } from "../model/credentials";
import { UnauthorizedError } from "../model/errors";

/**
 * The principal of a request.
 * @throws UnauthorizedError when the header is missing, the scheme is not Bearer, or the token is unknown.
 */
export function authenticate(header: string | undefined, credentials: Credentials): Principal {
  if (header === undefined || header.trim() === "") throw new UnauthorizedError("missing Authorization header");
  const match = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (!match || match[1].toLowerCase() !== "bearer") {
    throw new UnauthorizedError("the Authorization header must be `Bearer <token>`");
  }
  const principal = credentials.authenticate(match[2]);
  if (!principal) throw new UnauthorizedError("unknown token");
  return principal;
}
