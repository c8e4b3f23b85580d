/** Generation of identifiers in the shapes the contract fixes. */
import { randomBytes, randomInt } from "node:crypto";

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A random 10-character `[a-z0-9]` id (project, service, replica set, resource). */
export function newShortId(): string {
  const bytes = randomBytes(10);
  let id = "";
  for (const byte of bytes) id += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return id;
}

/** A random decimal id (VPC, peering), 8 to 10 digits, not in `taken`. */
export function newNumericId(taken: (id: string) => boolean): string {
  for (;;) {
    const id = String(randomInt(10_000_000, 2_000_000_000));
    if (!taken(id)) return id;
  }
}

/** A random 20-character secret for `initial_password`. */
export function newPassword(): string {
  return randomBytes(15).toString("base64url");
}

/** A peering's provisioned id, `pcx-` and 17 hex digits. */
export function newProvisionedId(): string {
  return `pcx-${randomBytes(9).toString("hex").slice(0, 17)}`;
}
