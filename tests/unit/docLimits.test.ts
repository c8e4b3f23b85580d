/**
 * The documentation of the inputs takes its bounds and allowed values from the contract
 * (contract/describe.ts, from contract/values.ts and contract/sizes.ts), never from a number
 * or a name typed a second time. The package schema (`schema.json`, which the native SDKs are
 * generated from) and the README's tables are built here in process, once as they are and
 * once with every bound and list of the contract changed before the definitions load: every
 * range a doc string names must follow the change, and no old value may be left over. A
 * doc that retypes `1 to 128` (or a region list, a size) fails here.
 */
import * as fs from "fs";
import * as path from "path";

const root = path.resolve(__dirname, "..", "..");

type Limits = Record<string, number>;
type Size = { cpuMillis: number; memoryGbs: number };

/** Every `description` in a package schema, with where it is. */
function descriptions(node: unknown, at = "", found: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((n, i) => descriptions(n, `${at}[${i}]`, found));
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") found.push([at, value]);
      else descriptions(value, `${at}/${key}`, found);
    }
  }
  return found;
}

/** The numbers of the ranges a text names (`1 to 128`, `0 to \`replicaCount\``, `prefix 16 to 28`). */
function rangeNumbers(text: string): number[] {
  return [...text.matchAll(/\b(\d+) to (\d+\b|`)/g)].flatMap((m) => [Number(m[1]), ...(m[2] === "`" ? [] : [Number(m[2])])]);
}

/** The package schema's descriptions and the README's resource tables, built from the definitions as they load now. */
function generatedDocs(): { schema: Array<[string, string]>; readme: string } {
  const { foundResources } = require("../../scripts/generate/providerFiles") as typeof import("../../scripts/generate/providerFiles");
  const { packageSchema } = require("../../scripts/generate/packageSchema") as typeof import("../../scripts/generate/packageSchema");
  const { withResourceTables } = require("../../scripts/generate/readmeTables") as typeof import("../../scripts/generate/readmeTables");

  const resources = foundResources(root);
  const readme = withResourceTables(fs.readFileSync(path.join(root, "README.md"), "utf8"), resources);
  return { schema: descriptions(packageSchema(root, resources)), readme };
}

/** The same, with the contract's bounds and lists changed to `changed` before anything else loads. */
function docsWithContract(change: (values: typeof import("../../contract/values"), sizes: typeof import("../../contract/sizes")) => void) {
  let docs: ReturnType<typeof generatedDocs> | undefined;
  jest.isolateModules(() => {
    const values = require("../../contract/values") as typeof import("../../contract/values");
    const sizes = require("../../contract/sizes") as typeof import("../../contract/sizes");

    change(values, sizes);
    docs = generatedDocs();
  });
  return docs!;
}

/** Bounds no doc names today, each distinct, to tell them apart. */
const CHANGED_LIMITS: Limits = {
  nameMinLength: 3,
  nameMaxLength: 777,
  passwordMinLength: 11,
  passwordMaxLength: 555,
  replicaSetNodesMin: 2,
  replicaSetNodesMax: 44,
  haReplicaCountMin: 1,
  haReplicaCountMax: 6,
  cidrPrefixMin: 17,
  cidrPrefixMax: 27,
};

describe("documentation text takes the contract's bounds", () => {
  const { LIMITS } = jest.requireActual<typeof import("../../contract/values")>("../../contract/values");

  it("changes every bound a doc string names when the contract's bound changes, and leaves none of the old", () => {
    expect(Object.keys(CHANGED_LIMITS).sort()).toEqual(Object.keys(LIMITS).sort());
    const added: Size = { cpuMillis: 64000, memoryGbs: 256 };
    const docs = docsWithContract((values, sizes) => {
      Object.assign(values.LIMITS as unknown as Limits, CHANGED_LIMITS);
      (values.SERVICE_TYPES as unknown as string[]).push("GRAPH");
      (values.ENVIRONMENTS as unknown as string[]).push("STAGING");
      (values.FORK_STRATEGIES as unknown as string[]).push("BRANCH");
      (sizes.DEDICATED_SIZES as Size[]).push(added);
      (sizes.SERVICE_SIZES as Size[]).push(added);
    });
    const texts = docs.schema.map(([, text]) => text);
    const changed = new Set(Object.values(CHANGED_LIMITS));
    // Every range in every doc is one of the changed bounds: none was typed as a number.
    for (const [at, text] of docs.schema) {
      for (const n of rangeNumbers(text)) expect([at, n, changed.has(n)]).toEqual([at, n, true]);
    }
    const tables = docs.readme.split("\n").filter((line) => line.startsWith("| `"));
    for (const line of tables) for (const n of rangeNumbers(line)) expect([line, changed.has(n)]).toEqual([line, true]);
    // And each bound is there, where the inputs are documented (schema and README alike).
    const all = [...texts, docs.readme].join("\n");
    expect(all).toContain("Name, 3 to 777 characters.");
    expect(all).toContain("Name of the VPC, 3 to 777 characters.");
    expect(all).toContain("Password, 11 to 555 characters (secret).");
    expect(all).toContain("IPv4 network, prefix 17 to 27, host bits zero");
    expect(all).toContain("Number of nodes, 2 to 44.");
    expect(all).toContain("`replicaCount` 1 to 6, `syncReplicaCount` 1 to `replicaCount`");
    expect(texts).toContain("1 to 6.");
    expect(texts).toContain("1 to `replicaCount`.");
    expect(all).toContain("`TIMESERIES`, `RELATIONAL`, `VECTOR` or `GRAPH`. A fork has its source's.");
    expect(all).toContain("`DEV`, `PROD` or `STAGING`.");
    expect(all).toContain("`strategy` is `LAST_SNAPSHOT`, `NOW`, `PITR` or `BRANCH`");
    expect(texts).toContain("`LAST_SNAPSHOT`, `NOW`, `PITR`, or `BRANCH` (point in time: needs `targetTime`).");
    expect(all).toContain("500/2, 1000/4, 2000/8, 4000/16, 8000/32, 16000/64, 32000/128, 64000/256");
  });

  it("names in the committed schema.json and README only the contract's bounds", () => {
    const bounds = new Set<number>(Object.values(LIMITS));
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")) as unknown;
    const found = descriptions(schema).flatMap(([at, text]) => rangeNumbers(text).map((n) => [at, n] as const));
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter(([, n]) => !bounds.has(n))).toEqual([]);
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const rows = readme.split("\n").filter((line) => line.startsWith("| `"));
    expect(rows.flatMap((line) => rangeNumbers(line)).filter((n) => !bounds.has(n))).toEqual([]);
  });

  it("lists in each status output the statuses of the contract's table", () => {
    const { knownStatuses } = jest.requireActual<typeof import("../../contract/statuses")>("../../contract/statuses");
    const docs = generatedDocs().schema;
    const statusDoc = (kind: string) => docs.find(([at]) => at === `/resources/clouddb:index:${kind}/properties/status`)?.[1] ?? "";
    const ticked = (text: string) => [...text.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]).sort();
    expect(ticked(statusDoc("ReadReplicaSet"))).toEqual(knownStatuses("replica set").sort());
    expect(ticked(statusDoc("VpcPeering"))).toEqual(knownStatuses("peering").sort());
    // A service's names two of its statuses, as examples: each one of the table's.
    expect(ticked(statusDoc("Service")).length).toBeGreaterThan(0);
    expect(knownStatuses("service")).toEqual(expect.arrayContaining(ticked(statusDoc("Service"))));
  });

  it("makes up names no longer than the contract's bound, and follows it when it changes", () => {
    const { newAutoname } = jest.requireActual<typeof import("../../provider/framework/autonaming")>("../../provider/framework/autonaming");
    const { name } = jest.requireActual<typeof import("../../contract/rules")>("../../contract/rules");
    const made = newAutoname("x".repeat(500));
    expect([...made].length).toBe(LIMITS.nameMaxLength);
    expect(name.safeParse(made).success).toBe(true);
    jest.isolateModules(() => {
      const values = require("../../contract/values") as typeof import("../../contract/values");
      Object.assign(values.LIMITS as unknown as Limits, { nameMaxLength: 40 });
      const autonaming = require("../../provider/framework/autonaming") as typeof import("../../provider/framework/autonaming");

      expect(autonaming.newAutoname("x".repeat(500))).toHaveLength(40);
    });
  });

  it("takes the provider's own defaults the documentation names (an operation's timeout, a request's) from where they are set", () => {
    let texts: string[] = [];
    let operationDefaults: unknown[] = [];
    jest.isolateModules(() => {
      const durations = require("../../provider/framework/durations") as Record<string, unknown>;
      const config = require("../../provider/client/config") as Record<string, unknown>;

      durations.DEFAULT_OPERATION_TIMEOUT_MS = 45 * 60_000;
      config.DEFAULT_REQUEST_TIMEOUT_MS = 12_000;
      const { foundResources } = require("../../scripts/generate/providerFiles") as typeof import("../../scripts/generate/providerFiles");
      const { packageSchema } = require("../../scripts/generate/packageSchema") as typeof import("../../scripts/generate/packageSchema");
      const { sdkFiles } = require("../../scripts/generate/sdkFiles") as typeof import("../../scripts/generate/sdkFiles");
      const resources = foundResources(root);
      // The native schema names the operations' default as its configuration's; the dynamic SDK in its `timeouts` type's doc.
      const variables = packageSchema(root, resources).config?.variables ?? {};
      operationDefaults = ["createTimeout", "updateTimeout", "deleteTimeout"].map((k) => variables[k]?.default);
      texts = [...generatedDocs().schema.map(([, text]) => text), ...Object.values(sdkFiles(resources))];
    });
    expect(operationDefaults).toEqual(["45m", "45m", "45m"]);
    expect(texts.join("\n")).toContain("which defaults to 45 minutes.");
    expect(texts.join("\n")).toContain(
      'to its last received: seconds (`600`) or a duration such as `"90s"`, `"30m"`, `"1h30m"`. Unset: 12s.',
    );
    expect(texts.join("\n")).not.toMatch(/defaults to 30 minutes|Unset: 30s\./);
  });
});
