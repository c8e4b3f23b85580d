/**
 * A replacement as the step generator plans it (pulumi/pulumi v3.248.0,
 * pkg/resource/deploy/step_generator.go L1834-2037): refused when both the program and the
 * state protect the resource (recorded and previewed on in a preview, L1834-1852); a second
 * Check with no olds and the raw program inputs, except for a targeted replace (L1882-1901,
 * L1886); then create-before-delete (the old half marked for deletion once the new one
 * exists, deleted with the other deletes), or delete-before-replace (the program's option,
 * when set, overrides the provider's) with the dependents whose Diff would replace them
 * deleted first (`calculateDependentReplacements` L3009-3152).
 */
import type { Deployment } from "./deployment";
import { protectedDependentMessage, protectedReplaceMessage } from "./diagnostics";
import { EngineDied, message } from "./engineRun";
import { JsonObject } from "./protos";
import { RegisterRequest, RegistrationError } from "./registration";
import { unwrapProperties } from "./secrets";
import { StateEntry } from "./state";
import { StepFn } from "./stepExecutor";
import { UNKNOWN } from "./types";

/** Makes the create step of a registration: the inputs, the step's op, and what to do once the resource exists. */
export type CreateStepFactory = (inputs: JsonObject, op: "create" | "replace", onMade: () => void) => StepFn;

/** How a replacement was decided. */
export interface ReplaceOptions {
  /** The provider's `deleteBeforeReplace` (false when no Diff ran). */
  providerDbr: boolean;
  /** A targeted replace (`--replace`, taint): no second Check (L1886). */
  targeted: boolean;
}

/** The chain of steps of a replacement of `old` by the registration `req` (checked inputs `checked`). */
export async function replaceChain(
  d: Deployment,
  urn: string,
  req: RegisterRequest,
  old: StateEntry,
  checked: JsonObject,
  { providerDbr, targeted }: ReplaceOptions,
  createStep: CreateStepFactory,
): Promise<StepFn[]> {
  const { name } = req;
  if (req.protect && old.protect) {
    d.error(urn, name, protectedReplaceMessage(urn));
    // A preview records the error and goes on, so the user sees the diff that causes it.
    if (!d.preview) {
      d.bail();
      throw new RegistrationError(protectedReplaceMessage(urn));
    }
  }
  // The second Check "recomputes the default values" from the raw program inputs; its failures
  // print the first Check's values.
  const inputs = targeted ? checked : await d.check(urn, req, {}, unwrapProperties(req.object).props, checked);
  const dbr = req.deleteBeforeReplace ?? providerDbr;
  if (!dbr) {
    return [
      createStep(inputs, "replace", () => {
        old.pendingDelete = true;
      }),
    ];
  }
  const dependents = await dependentReplacements(d, old);
  const blocked = dependents.find((x) => x.protect);
  if (blocked) {
    const msg = protectedDependentMessage(blocked.urn, urn);
    d.error(blocked.urn, blocked.name, msg);
    d.bail();
    throw new RegistrationError(msg);
  }
  const deleteReplaced =
    (r: StateEntry): StepFn =>
    async () => {
      // DeleteStep.Apply: nothing is sent in a preview, nor for `retainOnDelete` (st L620-634).
      if (!d.preview && !r.retainOnDelete) {
        try {
          await d.rpc(() => d.plugin.delete(r.urn, r.id, r.outputs, r.inputs));
        } catch (e) {
          if (!(e instanceof EngineDied)) d.error(r.urn, r.name, `${r.name}: deleting before replacement: ${message(e)}`);
          throw e;
        }
      }
      // Kept in state as pendingReplacement until its replacement exists (st L749-753).
      if (!d.preview) r.pendingReplacement = true;
      d.step("delete-replaced", r.urn, r.type, r.name);
    };
  for (const x of dependents) d.condemned.add(x.urn);
  return [
    ...[...dependents].reverse().map(deleteReplaced),
    ...(old.pendingReplacement ? [] : [deleteReplaced(old)]),
    createStep(inputs, "replace", () => d.state.remove(old)),
  ];
}

/**
 * The dependents a delete-before-replace must delete first: resources of the old state not
 * registered yet in this run whose inputs have a property dependency on a condemned resource,
 * and whose Diff, with those inputs unknown, says replace. `dependsOn` alone never condemns.
 */
async function dependentReplacements(d: Deployment, root: StateEntry): Promise<StateEntry[]> {
  const condemned = new Set([root.urn]);
  const out: StateEntry[] = [];
  for (const r of d.state.resources) {
    if (r === root || r.pendingDelete || d.seen.has(r.urn)) continue;
    const keys = Object.entries(r.propertyDependencies)
      .filter(([, urns]) => urns.some((u) => condemned.has(u)))
      .map(([k]) => k);
    if (keys.length === 0) continue;
    const news = { ...r.inputs, ...Object.fromEntries(keys.map((k) => [k, UNKNOWN])) };
    const diff = await d.rpc(() => d.plugin.diff(r.urn, r.id, r.outputs, news, r.inputs));
    if (diff.changes !== "none" && diff.replaces.length > 0) {
      condemned.add(r.urn);
      out.push(r);
    }
  }
  return out;
}
