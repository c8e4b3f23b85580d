/**
 * Finding a registration's old state, by its URN or by its `aliases` (pulumi/pulumi v3.248.0,
 * pkg/resource/deploy/step_generator.go `getOldResource` L614-680).
 */
import type { Deployment } from "./deployment";
import { aliasUrn, RegisterRequest, RegistrationError } from "./registration";
import { StateEntry } from "./state";

/**
 * The old state of a registration: by its URN, else by its aliases. One found by an alias
 * takes the new URN, and so do references to it (the snapshot rewrites them), so it is the
 * same resource, not a delete and a create. An alias of a URN registered in this run is an error.
 */
export function oldStateOf(d: Deployment, urn: string, req: RegisterRequest): StateEntry | undefined {
  const direct = d.state.live(urn);
  if (direct) return direct;
  for (const alias of req.aliases ?? []) {
    const from = aliasUrn(alias, d.stack, d.project, req);
    const old = d.state.live(from);
    if (!old) continue;
    if (d.seen.has(from)) {
      const msg = `Duplicate resource alias '${from}' applied to resource with URN '${urn}' conflicting with resource with URN '${from}'`;
      d.error(urn, req.name, msg);
      d.bail();
      throw new RegistrationError(msg);
    }
    const renamed = (u: string): string => (u === from ? urn : u);
    for (const r of d.state.resources) {
      r.urn = renamed(r.urn);
      r.dependencies = r.dependencies.map(renamed);
      for (const k of Object.keys(r.propertyDependencies)) r.propertyDependencies[k] = r.propertyDependencies[k].map(renamed);
    }
    return old;
  }
  return undefined;
}
