/** IPv4 CIDR parsing and the contract's rules for VPC networks. */
import { LIMITS } from "./values";

/** Why a CIDR is refused, or `undefined` when it is a valid VPC network. */
export function cidrProblem(cidr: string): string | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!match) return `${JSON.stringify(cidr)} is not IPv4 CIDR notation (like 10.0.0.0/16)`;
  const octets = match.slice(1, 5).map(Number);
  if (octets.some((o, i) => o > 255 || (match[i + 1].length > 1 && match[i + 1].startsWith("0")))) {
    return `${JSON.stringify(cidr)} has an invalid IPv4 address`;
  }
  const prefix = Number(match[5]);
  if (prefix < LIMITS.cidrPrefixMin || prefix > LIMITS.cidrPrefixMax) {
    return `prefix length /${prefix} is outside /${LIMITS.cidrPrefixMin} to /${LIMITS.cidrPrefixMax}`;
  }
  const address = octets.reduce((acc, o) => acc * 256 + o, 0);
  const hostBits = 2 ** (32 - prefix);
  if (address % hostBits !== 0) return `${JSON.stringify(cidr)} has host bits set (the network address must end in zeros)`;
  return undefined;
}
