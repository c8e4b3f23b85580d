/**
 * The SDK's resource classes and named types, generated from the resource definitions
 * (provider/resources/<module>/definition.ts), so that what a program can write is what
 * `check` accepts, with the same documentation.
 */
import type { z } from "zod";
import type { InputSpec, NamedType, OutputSpec } from "../../provider/framework/schema";
import { namedTypesOf, specsOf, type RegisteredResource } from "../../provider/resources/registration";
import { header } from "./header";
import { interfaceBody, typeText } from "./typeText";

/** Where the SDK's files as a whole are generated from. */
const DEFINITIONS = "provider/resources/*/definition.ts";

const CHANGE_TEXT: Record<InputSpec["change"], string> = {
  "in-place": "A change applies in place.",
  replace: "A change replaces the resource.",
  "create-only": "Read at create only.",
};

function tsdoc(lines: string[], indent: string): string {
  const body = lines.filter((l, i) => l !== "" || (i > 0 && i < lines.length - 1 && lines[i - 1] !== ""));
  if (body.length === 1 && !body[0].includes("\n")) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body
    .flatMap((l) => l.split("\n"))
    .map((l) => `${indent} *${l ? ` ${l}` : ""}`)
    .join("\n")}\n${indent} */\n`;
}

function inputType(spec: InputSpec): string {
  return spec.sdkType ?? typeText(spec.schema, "input", "  ");
}

function outputType(spec: OutputSpec): string {
  return spec.sdkType ?? typeText(spec.schema, "output", "  ");
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** Named types a piece of type text uses. */
function namedTypesIn(named: Record<string, NamedType>, texts: string[]): string[] {
  return Object.keys(named).filter((n) => texts.some((t) => new RegExp(`\\b${n}\\b`).test(t)));
}

/** What the constructor's TSDoc says of secrets. */
function secretNote(shape: { secretInputs: string[]; secretOutputs: string[] }): string {
  const list = (keys: string[]) => keys.map((k) => `\`${k}\``).join(", ");
  const parts = [
    shape.secretOutputs.length
      ? `${list(shape.secretOutputs)} ${shape.secretOutputs.length > 1 ? "are" : "is"} always added to \`additionalSecretOutputs\``
      : "",
    shape.secretInputs.length ? `a given ${list(shape.secretInputs)} is sent as a secret input` : "",
  ].filter(Boolean);
  return parts.length ? `; ${parts.join(", and ")}` : "";
}

/** The file `sdk/<module>.ts` of one resource. */
export function sdkClassFile(r: RegisteredResource, namedTypes: Record<string, NamedType>): string {
  const schema = r.definition.schema;
  const { inputs, outputs } = specsOf(r);
  const kind = schema.kind;
  const argLines = Object.entries(inputs).map(([key, spec]) => {
    const dflt = spec.default === undefined ? "" : `@default ${JSON.stringify(spec.default)}`;
    return `${tsdoc([spec.doc, `${CHANGE_TEXT[spec.change]}${dflt ? ` ${dflt}` : ""}`], "  ")}  ${key}${spec.required ? "" : "?"}: pulumi.Input<${inputType(spec)}>;`;
  });
  const outLines = Object.entries(outputs).map(([key, spec]) => {
    const t = outputType(spec);
    return `${tsdoc([spec.doc], "  ")}  declare readonly ${key}: pulumi.Output<${t}${isOptional(spec.schema) && !t.includes("undefined") ? " | undefined" : ""}>;`;
  });
  const lookupType = `{ ${schema.lookup.map((k) => `${k}?: pulumi.Input<${inputType(inputs[k])}>`).join("; ")} }`;
  const secrets = {
    secretInputs: Object.entries(inputs)
      .filter(([, s]) => s.secret)
      .map(([k]) => k),
    secretOutputs: Object.entries(outputs)
      .filter(([, s]) => s.secret)
      .map(([k]) => k),
  };
  const named = namedTypesIn(namedTypes, [...Object.values(inputs).map(inputType), ...Object.values(outputs).map(outputType)]);
  const article = /^[AEIOU]/.test(kind) ? "an" : "a";
  const constant = r.module.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
  return `${header(r.source)}import * as pulumi from "@pulumi/pulumi";
import { ${r.module}Definition } from "../provider/resources/${r.module}/definition";
import { ClouddbResource } from "./construct";
import { resourceType } from "./resourceType";
${named.length ? `import type { ${named.join(", ")} } from "./types";\n` : ""}
/** Arguments of ${article} {@link ${kind}}. */
export interface ${kind}Args {
${argLines.join("\n")}
}

/** The state a lookup of ${article} ${kind} takes (\`${kind}.get\`). */
type Lookup = ${lookupType};

/** The ${kind} type: its serialized provider (one object, so Pulumi serializes it once) and what its constructor needs of its definition. */
const ${constant} = resourceType(${JSON.stringify(r.module)}, ${r.module}Definition.schema);

${tsdoc([schema.doc, "", "```ts", schema.example, "```"], "")}export class ${kind} extends ClouddbResource {
${outLines.join("\n")}

  /**
   * Looks up an existing ${kind} without managing it (read-only). An id that does not exist fails the lookup.
   *
   * @param name the name of the resulting resource in the program
   * @param id the ${kind}'s id
   * @param state ${schema.lookup.map((k) => `\`${k}\``).join(", ")} where the lookup needs ${schema.lookup.length > 1 ? "them" : "it"}
   * @param opts resource options
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Lookup, opts?: pulumi.CustomResourceOptions): ${kind} {
    return new ${kind}(name, state as ${kind}Args, { ...opts, id });
  }

  /**
   * @param name the resource's name in the program
   * @param args the ${kind}'s arguments
   * @param opts resource options${secretNote(secrets)}
   */
  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {
    super(${constant}, name, args, opts);
  }
}
`;
}

/** The file `sdk/types.ts`: the named types. */
export function sdkTypesFile(namedTypes: Record<string, NamedType>): string {
  const parts = Object.entries(namedTypes).map(([name, t]) => {
    const doc = tsdoc([t.doc], "");
    if ("tsType" in t) return `${doc}export type ${name} = ${t.tsType};`;
    return `${doc}export interface ${name} {\n${interfaceBody(t.schema, "input")}\n}`;
  });
  const usesPulumi = parts.some((p) => p.includes("pulumi."));
  return `${header(DEFINITIONS)}${usesPulumi ? 'import type * as pulumi from "@pulumi/pulumi";\n' : ""}\n${parts.join("\n\n")}\n`;
}

/** The file `sdk/results.ts`: what the lookup functions return, as plain types (no client or zod in a program's type graph). */
export function sdkResultsFile(resources: readonly RegisteredResource[], namedTypes: Record<string, NamedType>): string {
  const parts = resources.map((r) => {
    const { outputs } = specsOf(r);
    const kind = r.definition.schema.kind;
    const lines = Object.entries(outputs)
      .filter(([, spec]) => spec.inLookups)
      .map(
        ([key, spec]) =>
          `${tsdoc([spec.doc], "  ")}  readonly ${key}${isOptional(spec.schema) ? "?" : ""}: ${outputType(spec).replace(/ \| undefined$/, "")};`,
      );
    return `/** ${article(kind)} ${kind} as the lookup functions return it: its outputs without secrets. */
export interface ${kind}Result {
${lines.join("\n")}
}`;
  });
  const named = namedTypesIn(namedTypes, parts);
  return `${header(DEFINITIONS)}${
    named.length
      ? `import type { ${named.join(", ")} } from "./types";
`
      : ""
  }
${parts.join("\n\n")}
`;
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? "An" : "A";
}

/** The file `sdk/index.ts`: what a program imports. */
export function sdkIndexFile(resources: readonly RegisteredResource[], namedTypes: Record<string, NamedType>): string {
  const classes = resources.map((r) => {
    const kind = r.definition.schema.kind;
    return `export { ${kind}, type ${kind}Args } from "./${r.module}";`;
  });
  return `${header(DEFINITIONS)}/**
 * pulumi-clouddb: Pulumi resources for CloudDB managed databases.
 *
 * \`\`\`ts
 * import * as clouddb from "pulumi-clouddb";
 * const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * const db = new clouddb.Service("db", { name: "orders", vpcId: net.vpcId, connectionPooler: true });
 * \`\`\`
 *
 * @packageDocumentation
 */
${classes.join("\n")}
export type { ${Object.keys(namedTypes).join(", ")} } from "./types";
export * from "./functions";
export { MissingArgumentError } from "./inputs";
`;
}

/** Every generated SDK file, by path. */
export function sdkFiles(resources: readonly RegisteredResource[]): Record<string, string> {
  const namedTypes = namedTypesOf(resources);
  const files: Record<string, string> = {
    "sdk/types.ts": sdkTypesFile(namedTypes),
    "sdk/index.ts": sdkIndexFile(resources, namedTypes),
    "sdk/results.ts": sdkResultsFile(resources, namedTypes),
  };
  for (const r of resources) files[`sdk/${r.module}.ts`] = sdkClassFile(r, namedTypes);
  return files;
}
