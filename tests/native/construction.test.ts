/**
 * Constructing a resource of the native plugin's generated TypeScript SDK
 * (`sdk-native/nodejs`, compiled as the package is: harness/nativeSdk.ts) in a program, on
 * Pulumi's mocks: as the dynamic SDK's (tests/sdk/construction.test.ts), the constructor
 * takes none of the stack traces Pulumi's runtime would take for each property's promises
 * (the SDK's overlay, tools/sdk-overlays/nodejs), and that changes nothing a program sees:
 * the resource's source position is the program's line, an error the constructor throws
 * carries the trace of the program's call, transformations run with the program's stack
 * trace limit, and `PULUMI_DEBUG_PROMISE_LEAKS` still gets every promise's trace. An input
 * the program leaves unset costs its registration nothing (no Output the SDK made of it),
 * and one it gives still gets its type's defaults.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import { REPO_ROOT } from "../../harness";
import { compiledNativeSdk } from "../../harness/nativeSdk";

type Construct = new (name: string, args: object, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource;

/** Arguments each custom resource of the schema takes (its required ones). */
const ARGS: Record<string, object> = {
  Vpc: { name: "net", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
  Service: { name: "db" },
  VpcPeering: { vpcId: "v", peerVpcId: "p", peerAccountId: "a", peerRegionCode: "us-east-1" },
  ReadReplicaSet: { serviceId: "s", name: "r", cpuMillis: 1000, memoryGbs: 4, nodes: 1 },
};

/** The resources of the package schema, by class name. */
const RESOURCES = Object.keys(
  (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as { resources: object }).resources,
).map((token) => token.split(":")[2]);

/** The line this function is called from, in this file. */
function callerLine(): number {
  return Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split("\n")[2])![1]);
}

/** Counts the stack traces with frames formatted from now on, until `stop`, which returns their number. */
function countTraces(): { stop(): number } {
  const format = Error.prepareStackTrace;
  let taken = 0;
  Error.prepareStackTrace = (error, frames) => {
    if (frames.length > 0) taken++;
    return format ? format(error, frames) : String(error);
  };
  return {
    stop() {
      Error.prepareStackTrace = format;
      return taken;
    },
  };
}

/** How many stack traces with frames were formatted while `construct` ran (Pulumi's call-site capture is one). */
function tracesTaken(construct: () => void): number {
  const counting = countTraces();
  try {
    construct();
  } catch (error) {
    counting.stop();
    throw error;
  }
  return counting.stop();
}

describe("constructing a resource of the generated TypeScript SDK", () => {
  const positions = new Map<string, { uri: string; line: number }>();
  /** The inputs the engine was sent for each resource, by name. */
  const sent = new Map<string, Record<string, unknown>>();
  let sdk: Record<string, Construct>;
  const made: pulumi.CustomResource[] = [];
  const register = MockMonitor.prototype.registerResource;

  beforeAll(async () => {
    // What the engine is told of each resource's position in the program.
    MockMonitor.prototype.registerResource = function (this: MockMonitor, req: any, callback: any) {
      const p = req.getSourceposition();
      if (p) positions.set(req.getName() as string, { uri: p.getUri() as string, line: p.getLine() as number });
      sent.set(req.getName() as string, req.getObject().toJavaScript() as Record<string, unknown>);
      return register.call(this, req, callback);
    };
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "p",
      "s",
      false,
    );
    sdk = require(compiledNativeSdk()) as Record<string, Construct>;
  }, 120_000);
  afterAll(async () => {
    // Every registration answered, so that none is left running after the file.
    await Promise.all(made.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
    MockMonitor.prototype.registerResource = register;
  });

  const construct = (kind: string, name: string, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource => {
    const r = new sdk[kind](name, ARGS[kind], opts);
    made.push(r);
    return r;
  };

  it("takes no stack trace for the properties of any resource of the schema", () => {
    expect(RESOURCES.sort()).toEqual(Object.keys(ARGS).sort());
    for (const kind of RESOURCES) {
      // Pulumi's capture of the program's call sites alone (100 and more without).
      expect([kind, tracesTaken(() => construct(kind, `untraced-${kind}`))]).toEqual([kind, 1]);
      expect(Error.stackTraceLimit).toBeGreaterThan(0);
    }
    expect(construct("Vpc", "instance")).toBeInstanceOf(sdk.Vpc);
  });

  it("registers a Service with no haReplicas given at the cost of a resource with plain inputs", async () => {
    // From construction until the engine answered: Pulumi's call-site capture and the
    // traces of its own registration steps, the same for a Vpc (no input made an Output).
    await Promise.all(made.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
    const registered = async (kind: string, name: string): Promise<number> => {
      const counting = countTraces();
      try {
        const resource = construct(kind, name);
        await new Promise((resolve) => resource.urn.apply(resolve));
      } catch (error) {
        counting.stop();
        throw error;
      }
      return counting.stop();
    };
    expect(await registered("Service", "plain-service")).toBe(await registered("Vpc", "plain-vpc"));
    expect(sent.get("plain-service")).not.toHaveProperty("haReplicas");
  });

  it("fills in the defaults of haReplicas when the program gives it", async () => {
    made.push(new sdk.Service("replicated", { ...ARGS.Service, haReplicas: { replicaCount: 1 } }));
    await new Promise((resolve) => made.at(-1)!.urn.apply(resolve));
    expect(sent.get("replicated")?.haReplicas).toEqual({ replicaCount: 1, syncReplicaCount: 0 });
  });

  it("tells the engine the program's line as the resource's source position", async () => {
    const line = callerLine() + 1; // the next line's
    made.push(new sdk.Service("positioned", ARGS.Service));
    await new Promise((resolve) => made.at(-1)!.urn.apply(resolve));
    expect(positions.get("positioned")).toEqual({ uri: expect.stringContaining(path.basename(__filename)), line });
  });

  it("throws an error that carries the trace of the program's call", () => {
    let thrown: unknown;
    try {
      new sdk.Vpc("no-cidr", { name: "net", regionCode: "us-east-1" });
    } catch (e) {
      thrown = e;
    }
    expect((thrown as Error).message).toContain("Missing required property 'cidr'");
    expect((thrown as Error).stack).toContain(path.basename(__filename));
    expect((thrown as Error).stack).not.toContain("untracedResources");
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  });

  it("runs transformations with the program's stack trace limit, and takes the traces then", async () => {
    const limit = Error.stackTraceLimit;
    const seen: number[] = [];
    const transformation: pulumi.ResourceTransformation = () => {
      seen.push(Error.stackTraceLimit);
      return undefined;
    };
    let line = 0;
    // A named function: Pulumi records no position for an anonymous one's line.
    function declare(): void {
      line = callerLine() + 1; // the next line's
      made.push(new sdk.Vpc("transformed", ARGS.Vpc, { transformations: [transformation] }));
    }
    const traces = tracesTaken(declare);
    expect(seen).toEqual([limit]);
    expect(traces).toBeGreaterThan(10);
    await new Promise((resolve) => made.at(-1)!.urn.apply(resolve));
    expect(positions.get("transformed")?.line).toBe(line);
  });

  it("takes every promise's trace under PULUMI_DEBUG_PROMISE_LEAKS", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    try {
      expect(tracesTaken(() => construct("Vpc", "debugged"))).toBeGreaterThan(10);
    } finally {
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    }
  });
});
