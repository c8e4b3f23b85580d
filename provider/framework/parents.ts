import type { Props } from "./schema";
import { InputConflictError } from "./errors";

/**
 * The id of the parent a read of a child resource needs (a peering's VPC, a replica set's
 * service), from the recorded outputs or a lookup's state.
 *
 * @param what the resource read, e.g. `VPC peering 12`
 * @param kind its type, e.g. `VpcPeering`, for the lookup to name
 * @throws InputConflictError saying to pass the parent's id as the state of the lookup
 */
export function parentIdOf(recorded: Props, property: string, what: string, kind: string): string {
  const id = recorded[property];
  if (typeof id === "string" && id !== "") return id;
  throw new InputConflictError(property, `reading ${what} needs its ${property}: pass { ${property} } as the state of ${kind}.get`);
}
