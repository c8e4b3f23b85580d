/**
 * The Pulumi program (TypeScript) that declares the resources of an import document as
 * they are: after `pulumi import --file`, an `up` of it shows no change. Ids of resources in
 * the document become references (`net.vpcId`); protect is on, as `pulumi import` sets it.
 */
import { COMMON_INPUT_NAMES } from "../resources/common";
import { specsOf } from "../resources/registration";
import { RESOURCES } from "../resources/registry";
import type { ImportDocument, ImportResource } from "./document";

/** The arguments of a kind's class, in the order the program writes them: its own inputs (not the common ones), but its secrets. */
function argsOf(kind: string): string[] {
  const r = RESOURCES.find((x) => x.definition.schema.kind === kind);
  const inputs = r ? specsOf(r).inputs : {};
  return Object.keys(inputs).filter((key) => !(COMMON_INPUT_NAMES as readonly string[]).includes(key) && !inputs[key].secret);
}

/** The kind an id input refers to (`vpcId`: the Vpc whose output `vpcId` it is), if any. */
function referredKind(input: string): string | undefined {
  return RESOURCES.find((x) => x.definition.schema.idOutput === input)?.definition.schema.kind;
}

function variable(r: ImportResource): string {
  return r.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[0-9]/, "_$&");
}

/** The program, one statement per resource, references where the document has the target. */
export function importProgram(doc: ImportDocument): string {
  const byId = new Map(doc.resources.map((r) => [`${r.type}:${r.id}`, r]));
  const lines = doc.resources.map((r) => {
    const kind = r.type.split(":").pop()!;
    const args = argsOf(kind)
      .filter((k) => r.inputs[k] !== undefined)
      .map((k) => {
        const referred = referredKind(k);
        const target = referred && byId.get(`pulumi-nodejs:dynamic/clouddb:${referred}:${String(r.inputs[k])}`);
        return `${k}: ${target ? `${variable(target)}.${k}` : JSON.stringify(r.inputs[k])}`;
      });
    return `const ${variable(r)} = new clouddb.${kind}(${JSON.stringify(r.name)}, { ${args.join(", ")} }, { protect: true });`;
  });
  return ['import * as clouddb from "pulumi-clouddb";', "", ...lines, ""].join("\n");
}
