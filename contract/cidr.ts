/** IPv4 CIDR parsing and the contract's rule for VPC networks (CONTRACT.md, "Identifiers and values"). */
import { LIMITS } from "./values";

const EXAMPLE = "such as 10.0.0.0/16";

/** Why a CIDR is refused, in words that say what is expected, or `undefined` when it is a valid VPC network. Never throws. */
export function cidrProblem(cidr: string): string | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!match) return `expected an IPv4 network in CIDR notation, ${EXAMPLE}`;
  const written = match.slice(1, 5);
  const octets = written.map(Number);
  if (octets.some((o, i) => o > 255 || (written[i].length > 1 && written[i].startsWith("0")))) {
    return `expected an IPv4 address of four numbers 0 to 255 without leading zeros, ${EXAMPLE}`;
  }
  const prefix = Number(match[5]);
  if (prefix < LIMITS.cidrPrefixMin || prefix > LIMITS.cidrPrefixMax) {
    return `expected a prefix length of /${LIMITS.cidrPrefixMin} to /${LIMITS.cidrPrefixMax}, not /${prefix}`;
  }
  const address = octets.reduce((acc, o) => acc * 256 + o, 0);
  const hostBits = 2 ** (32 - prefix);
  if (address % hostBits === 0) return undefined;
  const network = address - (address % hostBits);
  const text = [24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256).join(".");
  return `expected the host bits zero (the network of this address is ${text}/${prefix})`;
}
