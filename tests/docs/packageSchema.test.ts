/**
 * `schema.json`, the Pulumi package schema `npm run generate` derives from the resource
 * definitions, is valid: against Pulumi's package metaschema (`pkg/codegen/schema/pulumi.json`
 * of pulumi/pulumi v3.248.0, the version this package builds against; copied under
 * fixtures/, see fixtures/README.md), and in what Pulumi's schema binder checks beyond it
 * (every `$ref` names a type the package declares, every required name is a property). It
 * says what the definitions say of secrets, replacements and required inputs. Broken copies
 * show that each check fails on what it guards against. That the committed file is what the
 * definitions give now is checked by generated.test.ts (`npm run generate -- --check`).
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import * as fs from "fs";
import * as path from "path";
import { diffedProperties, nativeSchema, secretInputs, secretOutputs } from "../../provider/framework/schema";
import { RESOURCES } from "../../provider/resources/registry";
import { typeSpecOfText } from "../../scripts/generate/typeTextSpec";

const root = path.resolve(__dirname, "..", "..");
const readJson = (file: string): any => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
const metaschema = readJson("tests/docs/fixtures/pulumi-package-metaschema.json");
const schema = readJson("schema.json");

/**
 * The metaschema compiled by Ajv's draft 2020-12 build (the draft the metaschema declares)
 * in strict mode, with the formats it uses checked (`uri-reference` of every `$ref`, `regex`:
 * strict mode refuses a schema with a format it does not know). `allowUnionTypes`: the
 * metaschema declares union types (`"type": ["boolean", "number", "string"]` of `default`).
 */
const validate = (() => {
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(metaschema);
})();

/** What the metaschema finds wrong with `doc`, one line each (once: a union's branches repeat them). */
function metaschemaErrors(doc: unknown): string[] {
  if (validate(doc)) return [];
  return [...new Set((validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} (${e.schemaPath})`))];
}

/** Every `$ref` in `value`, with where it is. */
function refsIn(value: unknown, at = ""): Array<{ at: string; ref: string }> {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => (k === "$ref" && typeof v === "string" ? [{ at, ref: v }] : refsIn(v, `${at}/${k}`)));
}

/** What Pulumi's binder refuses and the metaschema lets through. */
function bindingErrors(doc: any): string[] {
  const errors: string[] = [];
  const types: Record<string, any> = doc.types ?? {};
  const referenced = new Set<string>();
  for (const { at, ref } of refsIn(doc)) {
    const local = /^#\/types\/(.+)$/.exec(ref);
    if (local) {
      referenced.add(local[1]);
      if (!(local[1] in types)) errors.push(`${at}: ${ref} is not declared under types`);
    } else if (!["pulumi.json#/Any", "pulumi.json#/Archive", "pulumi.json#/Asset"].includes(ref)) {
      errors.push(`${at}: ${ref} refers outside the package`);
    }
  }
  const tokens = [...Object.keys(types), ...Object.keys(doc.resources ?? {})];
  for (const token of tokens) if (!token.startsWith(`${doc.name}:`)) errors.push(`${token} is not a token of the package ${doc.name}`);
  for (const token of Object.keys(types)) if (!referenced.has(token)) errors.push(`${token} is declared and never used`);
  const subset = (where: string, names: string[] | undefined, of: Record<string, unknown> | undefined) => {
    for (const n of names ?? []) if (!(n in (of ?? {}))) errors.push(`${where}: ${n} is required but no property`);
  };
  for (const [token, t] of Object.entries(types)) subset(token, t.required, t.properties);
  for (const [token, r] of Object.entries<any>(doc.resources ?? {})) {
    subset(`${token} inputs`, r.requiredInputs, r.inputProperties);
    subset(`${token} outputs`, r.required, r.properties);
  }
  return errors;
}

/** A deep copy of schema.json with `change` made to it. */
function broken(change: (doc: any) => void): any {
  const doc = structuredClone(schema);
  change(doc);
  return doc;
}

describe("schema.json", () => {
  it("is checked against the draft the metaschema declares", () => {
    expect(metaschema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(metaschema.title).toBe("Pulumi Package Metaschema");
  });

  it("is valid against Pulumi's package metaschema", () => {
    expect(metaschemaErrors(schema)).toEqual([]);
  });

  it("refers only to types it declares, declares none it does not use, and requires only properties it has", () => {
    expect(bindingErrors(schema)).toEqual([]);
  });

  it("has every resource type, with the inputs, outputs, secrets and replacements of its definition as the native plugin serves it", () => {
    const expected = RESOURCES.map((r) => {
      const { inputs, outputs } = nativeSchema(r.definition.schema);
      return {
        token: `clouddb:index:${r.definition.schema.kind}`,
        inputs: Object.keys(inputs),
        requiredInputs: Object.keys(inputs).filter((k) => inputs[k].required),
        secretInputs: secretInputs({ inputs }),
        replacing: diffedProperties({ inputs })
          .filter((d) => d.replace)
          .map((d) => d.property),
        outputs: Object.keys(outputs),
        secretOutputs: secretOutputs({ outputs }),
      };
    });
    const found = Object.entries<any>(schema.resources).map(([token, r]) => {
      const flagged = (props: Record<string, any>, flag: string) => Object.keys(props).filter((k) => props[k][flag] === true);
      return {
        token,
        inputs: Object.keys(r.inputProperties),
        requiredInputs: r.requiredInputs,
        secretInputs: flagged(r.inputProperties, "secret"),
        replacing: flagged(r.inputProperties, "replaceOnChanges"),
        outputs: Object.keys(r.properties),
        secretOutputs: flagged(r.properties, "secret"),
      };
    });
    expect(found).toEqual(expected);
    expect(Object.keys(schema.config.variables)).toEqual(
      expect.arrayContaining(["apiUrl", "apiKey", "projectId", "createTimeout", "pollInterval", "readCache"]),
    );
    expect(schema.config.variables.apiKey.secret).toBe(true);
  });

  it("has none of the inputs only the dynamic providers take: the engine's customTimeouts and explicit providers do the same", () => {
    const dynamicOnly = ["timeouts", "settings"];
    const named = Object.entries<any>(schema.resources).flatMap(([token, r]) =>
      [...Object.keys(r.inputProperties), ...Object.keys(r.properties), ...Object.keys(r.stateInputs.properties)]
        .filter((k) => dynamicOnly.includes(k))
        .map((k) => `${token}.${k}`),
    );
    expect(named).toEqual([]);
    expect(Object.keys(schema.types)).not.toEqual(expect.arrayContaining(["clouddb:index:Timeouts"]));
    expect(Object.keys(schema.types)).not.toEqual(expect.arrayContaining(["clouddb:index:ProviderSettings"]));
    // The dynamic providers keep both.
    for (const r of RESOURCES) expect(Object.keys(r.definition.schema.inputs)).toEqual(expect.arrayContaining(dynamicOnly));
  });

  describe("a broken copy fails", () => {
    const viaMetaschema: Array<[string, (doc: any) => void]> = [
      ["a property of a type Pulumi does not have", (d) => (d.resources["clouddb:index:Vpc"].inputProperties.name.type = "text")],
      ["an object as a default", (d) => (d.resources["clouddb:index:Service"].inputProperties.haReplicas.default = { replicaCount: 0 })],
      ["a type token without its module", (d) => (d.types["clouddb:HaReplicas"] = d.types["clouddb:index:HaReplicas"])],
      ["`secret` that is not a boolean", (d) => (d.config.variables.apiKey.secret = "yes")],
      ["a union of one type", (d) => (d.types["clouddb:index:HaReplicas"].properties.replicaCount.oneOf = [{ type: "number" }])],
      ["an enum without values", (d) => delete d.types["clouddb:index:Environment"].enum],
      ["a package without a name", (d) => delete d.name],
      [
        "a $ref that is no URI reference",
        (d) => (d.resources["clouddb:index:Vpc"].inputProperties.regionCode.$ref = "#/types/clouddb:index:Region Code"),
      ],
    ];
    it.each(viaMetaschema)("the metaschema: %s", (_what, change) => {
      expect(metaschemaErrors(broken(change))).not.toEqual([]);
    });

    const viaBinding: Array<[string, (doc: any) => void]> = [
      [
        "a $ref to an undeclared type",
        (d) => (d.resources["clouddb:index:Service"].inputProperties.forkFrom.$ref = "#/types/clouddb:index:ForkFromArgs"),
      ],
      ["a required output that is no property", (d) => d.resources["clouddb:index:Vpc"].required.push("vpcName")],
      ["a type nothing uses", (d) => (d.types["clouddb:index:Unused"] = { type: "string", enum: [{ value: "x" }] })],
    ];
    it.each(viaBinding)("the binding checks, where the metaschema lets it through: %s", (_what, change) => {
      const doc = broken(change);
      expect(metaschemaErrors(doc)).toEqual([]);
      expect(bindingErrors(doc)).not.toEqual([]);
    });
  });
});

describe("the package schema's generator", () => {
  it("reads what a definition writes as TypeScript type text, and fails on text it cannot read rather than calling it Any", () => {
    const named = (name: string) => (name === "Size" ? typeSpecOfText('number | "shared"', () => undefined) : undefined);
    expect(typeSpecOfText("Size | undefined", named)).toEqual({ oneOf: [{ type: "number" }, { type: "string" }] });
    expect(typeSpecOfText("Array<string>", named)).toEqual({ type: "array", items: { type: "string" } });
    expect(() => typeSpecOfText("Record<string, Size>", named)).toThrow(/cannot read the type text/);
  });
});
