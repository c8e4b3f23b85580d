/**
 * Each `sdkType` of a definition (the type the SDK shows for a property where the one derived
 * from its zod schema is not the one to show: `Size`, a named type, `string` for a region)
 * agrees with the zod rule it annotates, checked by TypeScript's compiler in this process:
 * 1. everything the rule accepts can be written as the SDK's type (the rule's input type, or
 *    for an output its output type, is assignable to it), and
 * 2. the SDK's type asks for nothing the rule's type has not: with `pulumi.Input` taken off
 *    and literal types widened to their primitives, both have the same fields, the same
 *    optionality and the same primitive types.
 * The annotations are read from the definitions (`RESOURCES`), the names they use from the
 * SDK's generated named types (sdk/types.ts).
 */
import * as path from "node:path";
import * as ts from "typescript";
import { namedTypesOf, specsOf, type RegisteredResource } from "../../provider/resources/registration";
import { RESOURCES } from "../../provider/resources/registry";

const ROOT = path.join(__dirname, "..", "..");
/** The checked source exists only in memory, beside this file (its imports are relative to tests/unit). */
const VIRTUAL = path.join(__dirname, "sdkTypes.check.ts");

/** One `sdkType` and the rule it annotates. */
interface Annotation {
  /** `Service.inputs.cpuMillis`; the inputs every resource shares are named once, by the first kind. */
  readonly label: string;
  /** The module that exports the definition, relative to tests/unit, and the export's name. */
  readonly module: string;
  readonly definition: string;
  readonly side: "inputs" | "outputs";
  readonly property: string;
  readonly sdkType: string;
}

/** Every `sdkType` the definitions hold; a spec every resource shares (`timeouts`, `settings`) once. */
function annotations(resources: readonly RegisteredResource[]): Annotation[] {
  const seen = new Set<object>();
  return resources.flatMap((r) => {
    const specs = specsOf(r);
    const module = `../../${r.source.replace(/\.ts$/, "")}`;
    return (["inputs", "outputs"] as const).flatMap((side) =>
      Object.entries(specs[side]).flatMap(([property, spec]) => {
        if (spec.sdkType === undefined || seen.has(spec)) return [];
        seen.add(spec);
        const label = `${r.definition.schema.kind}.${side}.${property}`;
        return [{ label, module, definition: `${r.module}Definition`, side, property, sdkType: spec.sdkType }];
      }),
    );
  });
}

/** The source that states both agreements for each annotation, and the lines each one's statements take. */
function checkSource(list: readonly Annotation[], namedTypes: readonly string[]): { text: string; lines: Array<[number, string]> } {
  const head = [
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { z } from "zod";',
    'import type * as sdk from "../../sdk/types";',
    ...namedTypes.map((n) => `type ${n} = sdk.${n};`),
    "/** A value with `pulumi.Input` taken off and literal types widened to their primitives, field by field. */",
    "type Plain<T> = T extends Promise<unknown> | pulumi.OutputInstance<unknown>",
    "  ? never",
    "  : T extends string ? string",
    "  : T extends number ? number",
    "  : T extends boolean ? boolean",
    "  : T extends readonly (infer E)[] ? Plain<E>[]",
    "  : T extends object ? { -readonly [K in keyof T]: Plain<T[K]> }",
    "  : T;",
    "type Same<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;",
  ];
  const lines: Array<[number, string]> = [];
  const body = list.flatMap((a, i) => {
    const schema = `(typeof import("${a.module}"))["${a.definition}"]["schema"]["${a.side}"]["${a.property}"]["schema"]`;
    const statements = [
      `type Rule${i} = Exclude<${a.side === "inputs" ? "z.input" : "z.output"}<${schema}>, undefined>;`,
      `type Shown${i} = Exclude<${a.sdkType}, undefined>;`,
      `export const writable${i}: Shown${i} = null as unknown as Rule${i};`,
      `export const sameShape${i}: Same<Plain<Shown${i}>, Plain<Rule${i}>> = true;`,
    ];
    lines.push([head.length + i * statements.length, a.label]);
    return statements;
  });
  return { text: [...head, ...body].join("\n"), lines };
}

/** What TypeScript finds wrong with `list`, each as `<label>: <message>`. */
function disagreements(list: readonly Annotation[]): string[] {
  const { text, lines } = checkSource(
    list,
    Object.keys(namedTypesOf(RESOURCES)).filter((n) => list.some((a) => new RegExp(`\\b${n}\\b`).test(a.sdkType))),
  );
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (config === undefined) throw new Error("tsconfig.json could not be read");
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, types: ["node"], noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    path.resolve(file) === VIRTUAL ? ts.createSourceFile(file, text, language) : getSourceFile(file, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === VIRTUAL || fileExists(file);
  const program = ts.createProgram({ rootNames: [VIRTUAL], options, host });
  const source = program.getSourceFile(VIRTUAL)!;
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const line = d.start === undefined ? -1 : source.getLineAndCharacterOfPosition(d.start).line;
    const label = [...lines].reverse().find(([start]) => line >= start)?.[1] ?? "(the check's own source)";
    return `${label}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

/** Annotations made wrong on purpose, to show the check fails: each label, and the `sdkType` it gets. */
const WRONG: Readonly<Record<string, string>> = {
  // The rule accepts "shared" too.
  "Service.inputs.cpuMillis": "number",
  // A region is a string.
  "Vpc.inputs.regionCode": "number",
  // The rule also takes a strategy and a target time.
  "Service.inputs.forkFrom": "{ serviceId: string }",
  // The rule's fields are optional (they default to 0).
  "Service.inputs.haReplicas": "{ replicaCount: number; syncReplicaCount: number }",
};

describe("sdkType annotations", () => {
  const list = annotations(RESOURCES);
  const wrong = list.filter((a) => a.label in WRONG).map((a) => ({ ...a, label: `wrong ${a.label}`, sdkType: WRONG[a.label] }));
  // One compilation for both (a few seconds): the definitions' annotations, and the wrong ones.
  let found: string[] = [];
  beforeAll(() => {
    found = disagreements([...list, ...wrong]);
  });

  it("are found in every kind's inputs and outputs, the shared ones once", () => {
    const labels = list.map((a) => a.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        "Service.inputs.cpuMillis",
        "Service.outputs.resources",
        "ReadReplicaSet.inputs.password",
        "Vpc.inputs.regionCode",
      ]),
    );
    expect(labels.filter((l) => l.endsWith(".inputs.timeouts"))).toHaveLength(1);
  });

  it("agree with the zod rule each annotates", () => {
    expect(found.filter((f) => !f.startsWith("wrong "))).toEqual([]);
  });

  it("fail when one does not: a type narrower than the rule, another primitive, or other fields", () => {
    expect(wrong).toHaveLength(Object.keys(WRONG).length);
    const labels = new Set(found.filter((f) => f.startsWith("wrong ")).map((f) => f.slice("wrong ".length).split(":")[0]));
    expect([...labels].sort()).toEqual(Object.keys(WRONG).sort());
  });
});
