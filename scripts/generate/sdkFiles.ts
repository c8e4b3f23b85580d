/**
 * The SDK's resource classes and named types, generated from the resource definitions
 * (provider/resources/<module>/definition.ts), so that what a program can write is what
 * `check` accepts, with the same documentation.
 */
import type { z } from "zod";
import {
  diffedProperties,
  secretInputs,
  secretOutputs,
  type InputSpec,
  type InputSpecs,
  type NamedType,
  type OutputSpec,
  type OutputSpecs,
} from "../../provider/framework/schema";
import { authInfoResultSchema, LOOKUPS } from "../../provider/lookups";
import { namedTypesOf, specsOf, type RegisteredResource } from "../../provider/resources/registration";
import type { ResourceType } from "../../sdk/construct";
import { header } from "./header";
import { sdkKindFunctionsFile } from "./sdkFunctions";
import { PACKAGE_SUMMARY } from "./packageInfo";
import { interfaceBody, jsonSchemaOf, typeText } from "./typeText";

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

/** What a class's TSDoc says of its secrets ("" when it has none). */
function secretNote(shape: { secretInputs: string[]; secretOutputs: string[] }): string {
  const list = (keys: string[]) => keys.map((k) => `\`${k}\``).join(", ");
  const parts = [
    shape.secretOutputs.length
      ? `${list(shape.secretOutputs)} ${shape.secretOutputs.length > 1 ? "are" : "is"} always added to \`additionalSecretOutputs\``
      : "",
    shape.secretInputs.length ? `a given ${list(shape.secretInputs)} is sent as a secret input` : "",
  ].filter(Boolean);
  return parts.length ? `Secrets: ${parts.join(", and ")}.` : "";
}

/** The properties every resource shares, one spec for all (the common ones the framework adds, e.g. `projectId`): the SDK declares them once. */
function sharedBy<Spec>(all: readonly Readonly<Record<string, Spec>>[]): Record<string, Spec> {
  const [first, ...rest] = all;
  return Object.fromEntries(Object.entries(first ?? {}).filter(([key, spec]) => rest.every((specs) => specs[key] === spec)));
}

/** What every resource shares: the arguments of `ResourceArgs` and the outputs of `ResourceOutputs`. */
interface Shared {
  readonly inputs: InputSpecs;
  readonly outputs: OutputSpecs;
}

/** An argument's documented declaration. */
function argLine(key: string, spec: InputSpec): string {
  const dflt = spec.default === undefined ? "" : `@default ${JSON.stringify(spec.default)}`;
  return `${tsdoc([spec.doc, `${CHANGE_TEXT[spec.change]}${dflt ? ` ${dflt}` : ""}`], "  ")}  ${key}${spec.required ? "" : "?"}: pulumi.Input<${inputType(spec)}>;`;
}

/** An output's documented declaration, as a plain value. */
function outputLine(key: string, spec: OutputSpec): string {
  return `${tsdoc([spec.doc], "  ")}  readonly ${key}${isOptional(spec.schema) ? "?" : ""}: ${outputType(spec).replace(/ \| undefined$/, "")};`;
}

/** The file `sdk/<module>.ts` of one resource: what a program passes, and the class (its outputs are in `sdk/outputs.ts`). */
export function sdkClassFile(r: RegisteredResource, namedTypes: Record<string, NamedType>, shared: Shared): string {
  const schema = r.definition.schema;
  const { inputs, outputs } = specsOf(r);
  const kind = schema.kind;
  const argLines = Object.entries(inputs)
    .filter(([key]) => !(key in shared.inputs))
    .map(([key, spec]) => argLine(key, spec));
  const named = namedTypesIn(namedTypes, argLines);
  const note = secretNote({ secretInputs: secretInputs({ inputs }), secretOutputs: secretOutputs({ outputs }) });
  const lookup = schema.lookup.map((k) => JSON.stringify(k)).join(" | ");
  return `${header(r.source)}import type * as pulumi from "@pulumi/pulumi";
import { resourceClass } from "./construct";
import type { ${kind}Outputs } from "./outputs";
import type { ${["ResourceArgs", ...named].join(", ")} } from "./types";

/** Arguments of ${article(kind)} {@link ${kind}}. */
export interface ${kind}Args extends ResourceArgs {
${argLines.join("\n")}
}

// prettier-ignore
${tsdoc([schema.doc, ...(note ? ["", note] : []), "", "```ts", schema.example, "```"], "")}export class ${kind} extends resourceClass<${kind}Args, ${kind}Outputs, ${lookup}>(${resourceTypeLiteral(r)}) {}
`;
}

/** What the constructor of a resource's class needs of its definition (the SDK's {@link ResourceType}). */
export function resourceTypeOf(r: RegisteredResource): ResourceType {
  const { schema } = r.definition;
  const { inputs, outputs } = specsOf(r);
  return {
    kind: schema.kind,
    module: r.module,
    idOutput: schema.idOutput,
    shape: {
      required: Object.entries(inputs)
        .filter(([, spec]) => spec.required)
        .map(([key]) => key),
      outputs: Object.keys(outputs).filter((key) => key !== schema.idOutput),
      secretInputs: secretInputs({ inputs }),
      secretOutputs: secretOutputs({ outputs }),
      changeable: diffedProperties({ inputs }).map((d) => d.property),
    },
  };
}

/**
 * What the constructor of a resource's class needs of its definition, written out as a
 * literal: a program that imports the SDK loads no definition (nor zod) to construct resources.
 */
function resourceTypeLiteral(r: RegisteredResource): string {
  const type = resourceTypeOf(r);
  // One line per field (the class is left as written by prettier-ignore): the lists are read, not diffed line by line.
  const field = (key: string, value: unknown): string => `    ${key}: ${JSON.stringify(value).replace(/","/g, '", "')},`;
  const shape = Object.entries(type.shape).map(([key, value]) => field(key, value));
  return `{\n  kind: ${JSON.stringify(type.kind)},\n  module: ${JSON.stringify(type.module)},\n  idOutput: ${JSON.stringify(type.idOutput)},\n  shape: {\n${shape.join("\n")}\n  },\n}`;
}

/** The file `sdk/types.ts`: the named types. */
export function sdkTypesFile(namedTypes: Record<string, NamedType>, shared: Shared): string {
  const parts = Object.entries(namedTypes).map(([name, t]) => {
    const doc = tsdoc([t.doc], "");
    if ("tsType" in t) return `${doc}export type ${name} = ${t.tsType};`;
    // An object is declared as an interface; any other value (a union of primitives) as a type.
    if (jsonSchemaOf(t.schema, "input").properties === undefined) return `${doc}export type ${name} = ${typeText(t.schema, "input")};`;
    return `${doc}export interface ${name} {\n${interfaceBody(t.schema, "input")}\n}`;
  });
  const sharedArgs = Object.entries(shared.inputs).map(([key, spec]) => argLine(key, spec));
  const sharedOutputs = Object.entries(shared.outputs).map(([key, spec]) => outputLine(key, spec));
  parts.unshift(
    `/** Arguments every resource takes. */\nexport interface ResourceArgs {\n${sharedArgs.join("\n")}\n}`,
    `/** Outputs every resource has. */\nexport interface ResourceOutputs {\n${sharedOutputs.join("\n")}\n}`,
  );
  const usesPulumi = parts.some((p) => p.includes("pulumi."));
  return `${header(DEFINITIONS)}${usesPulumi ? 'import type * as pulumi from "@pulumi/pulumi";\n' : ""}\n${parts.join("\n\n")}\n`;
}

/**
 * The file `sdk/outputs.ts`: each resource's outputs as plain values (its class holds each as a
 * `pulumi.Output`), and beside them what the lookup functions return of it: the outputs without
 * secrets or kept inputs (`inLookups`), and `getAuthInfo`'s result from its schema in the lookups'
 * table. No client or zod type enters a program's type graph.
 */
export function sdkOutputsFile(resources: readonly RegisteredResource[], namedTypes: Record<string, NamedType>, shared: Shared): string {
  const kinds = resources.map((r) => {
    const { outputs } = specsOf(r);
    return {
      kind: r.definition.schema.kind,
      outLines: Object.entries(outputs)
        .filter(([key]) => !(key in shared.outputs))
        .map(([key, spec]) => outputLine(key, spec)),
      withheld: Object.entries(outputs)
        .filter(([, spec]) => !spec.inLookups)
        .map(([key]) => JSON.stringify(key)),
    };
  });
  const parts = kinds.map(({ kind, outLines, withheld }) => {
    const result = withheld.length ? `Omit<${kind}Outputs, ${withheld.join(" | ")}>` : `${kind}Outputs`;
    return `/** The outputs of ${article(kind)} {@link ${kind}}: the class holds each as a \`pulumi.Output\`. */
export interface ${kind}Outputs extends ResourceOutputs {
${outLines.join("\n")}
}

/** ${capitalised(article(kind))} ${kind} as the lookup functions return it: its outputs${withheld.length ? ", without its secrets and the inputs it keeps" : ""}. */
export type ${kind}Result = ${result};`;
  });
  const named = namedTypesIn(
    namedTypes,
    kinds.flatMap((k) => k.outLines),
  );
  // The lookups' own result (provider/lookups/authInfo.ts), written where the kinds' results are.
  parts.push(
    `/** ${LOOKUPS.getAuthInfo.result.doc} */\nexport interface AuthInfoResult {\n${interfaceBody(authInfoResultSchema, "output")}\n}`,
  );
  return `${header(DEFINITIONS)}import type { ${["ResourceOutputs", ...named].join(", ")} } from "./types";

${parts.join("\n\n")}
`;
}

/** The indefinite article before a resource kind: `a Vpc`, `an Instance`. */
function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? "an" : "a";
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The file `sdk/index.ts`: what a program imports. */
export function sdkIndexFile(resources: readonly RegisteredResource[], namedTypes: Record<string, NamedType>): string {
  const classes = resources.map((r) => {
    const kind = r.definition.schema.kind;
    return `export { ${kind}, type ${kind}Args } from "./${r.module}";`;
  });
  return `${header(DEFINITIONS)}/**
 * pulumi-clouddb: ${PACKAGE_SUMMARY}
 * The resource classes, their arguments and outputs, and the lookup functions. The API client
 * is \`pulumi-clouddb/provider/client\`, the local emulator \`pulumi-clouddb/emulator\`.
 *
 * \`\`\`ts
 * import * as clouddb from "pulumi-clouddb";
 * const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * const db = new clouddb.Service("db", { name: "orders", vpcId: net.vpcId, connectionPooler: true });
 * \`\`\`
 *
 * @module pulumi-clouddb
 */
${classes.join("\n")}
export type { ${resources.map((r) => `${r.definition.schema.kind}Outputs`).join(", ")} } from "./outputs";
export type { ${["ResourceArgs", "ResourceOutputs", ...Object.keys(namedTypes)].join(", ")} } from "./types";
export * from "./functions";
export { MissingArgumentError } from "./inputs";
export { ConflictingOptionsError } from "./options";
`;
}

/** Every generated SDK file, by path. */
export function sdkFiles(resources: readonly RegisteredResource[]): Record<string, string> {
  const namedTypes = namedTypesOf(resources);
  const shared = {
    inputs: sharedBy(resources.map((r) => specsOf(r).inputs)),
    outputs: sharedBy(resources.map((r) => specsOf(r).outputs)),
  };
  const files: Record<string, string> = {
    "sdk/types.ts": sdkTypesFile(namedTypes, shared),
    "sdk/index.ts": sdkIndexFile(resources, namedTypes),
    "sdk/outputs.ts": sdkOutputsFile(resources, namedTypes, shared),
    "sdk/kindFunctions.ts": sdkKindFunctionsFile(resources),
  };
  for (const r of resources) files[`sdk/${r.module}.ts`] = sdkClassFile(r, namedTypes, shared);
  return files;
}
