/**
 * The Pulumi program (TypeScript) that declares the resources of an import document as
 * they are: after `pulumi import --file`, an `up` of it shows no change. Ids of resources in
 * the document become references (`net.vpcId`); protect is on, as `pulumi import` sets it.
 */
import type { ImportDocument, ImportResource } from "./document";

/** The arguments of each kind's class, in the order the program writes them. */
const ARGS: Record<string, readonly string[]> = {
  Vpc: ["name", "cidr", "regionCode"],
  VpcPeering: ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId"],
  Service: [
    "name",
    "serviceType",
    "regionCode",
    "cpuMillis",
    "memoryGbs",
    "haReplicas",
    "environment",
    "connectionPooler",
    "vpcId",
    "paused",
  ],
  ReadReplicaSet: ["serviceId", "name", "nodes", "cpuMillis", "memoryGbs", "environment", "connectionPooler"],
};

/** Which output of which kind an id input refers to. */
const REFERENCES: Record<string, { kind: string; output: string }> = {
  vpcId: { kind: "Vpc", output: "vpcId" },
  serviceId: { kind: "Service", output: "serviceId" },
};

function variable(r: ImportResource): string {
  return r.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[0-9]/, "_$&");
}

/** The program, one statement per resource, references where the document has the target. */
export function importProgram(doc: ImportDocument): string {
  const byId = new Map(doc.resources.map((r) => [`${r.type}:${r.id}`, r]));
  const lines = doc.resources.map((r) => {
    const kind = r.type.split(":").pop()!;
    const args = (ARGS[kind] ?? [])
      .filter((k) => r.inputs[k] !== undefined)
      .map((k) => {
        const ref = REFERENCES[k];
        const target = ref && byId.get(`pulumi-nodejs:dynamic/clouddb:${ref.kind}:${String(r.inputs[k])}`);
        return `${k}: ${target && ref ? `${variable(target)}.${ref.output}` : JSON.stringify(r.inputs[k])}`;
      });
    return `const ${variable(r)} = new clouddb.${kind}(${JSON.stringify(r.name)}, { ${args.join(", ")} }, { protect: true });`;
  });
  return ['import * as clouddb from "pulumi-clouddb";', "", ...lines, ""].join("\n");
}
