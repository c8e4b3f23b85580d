/**
 * The Pulumi runtime of an inline program the harness runs under the real CLI
 * (harness/cli/programRuntime.ts), as a program run by the CLI's own language host has it:
 * - no run inherits a connection an earlier run's dead engine left failing (the cause of the
 *   real-CLI tier's silent `up`s: the stack's registration failed at once, the program never
 *   ran, and the engine deleted what the stack held), and a run's clients are closed once its
 *   command ended;
 * - a command whose program the runtime never called is an error, never a success;
 * - a resource constructed where the run's async context was lost still reaches the engine;
 * - a run the engine saw succeed while promises of the program were rejected says so, with
 *   their stacks (harness/cli/runs.ts), for a test failing beside it to be read.
 */
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import type { AsyncLocalStorage } from "async_hooks";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { describeWithCli } from "../../harness/cli/tools";
import { startCloud, type Cloud } from "../../harness/cloud";
import { isolateProgramChannels, OWN_SUBCHANNELS } from "../../harness/cli/programRuntime";

/** A unary gRPC service of one method, for the connection cases below (bytes in, bytes out). */
const ping = {
  ping: {
    path: "/probe.Probe/Ping",
    requestStream: false,
    responseStream: false,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  },
} as const;
const PingClient = grpc.makeGenericClientConstructor(ping, "Probe");

/** A server of {@link ping} on `port` (0: any free one), and the port it got. */
async function pingServer(port: number): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  server.addService(ping, { ping: (_call: unknown, done: grpc.sendUnaryData<Buffer>) => done(null, Buffer.from("pong")) });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { server, port: bound };
}

/** One call of {@link ping} on `client`: "pong", or the error's message. */
function call(client: grpc.Client): Promise<string> {
  return new Promise((resolve) =>
    (client as unknown as { ping(b: Buffer, cb: (e: Error | null, r?: Buffer) => void): void }).ping(Buffer.from("ping"), (e, r) =>
      resolve(e ? e.message : String(r)),
    ),
  );
}

/** The options object the Pulumi runtime gives each gRPC client it makes (not in its typings: programRuntime.ts). */
function runtimeClientOptions(): grpc.ChannelOptions & { interceptors: grpc.Interceptor[] } {
  const options = (pulumi.runtime as unknown as { grpcClientOptions?: grpc.ChannelOptions & { interceptors: grpc.Interceptor[] } })
    .grpcClientOptions;
  if (options === undefined) throw new Error("@pulumi/pulumi has no runtime.grpcClientOptions: the runtime this test knows changed");
  return options;
}

describe("a gRPC client the Pulumi runtime makes for a run", () => {
  it("reaches an engine that listens on a port where an earlier run's engine died with calls under way", async () => {
    // The runtime's options as @pulumi/pulumi gives them, and as the harness makes them.
    const { [OWN_SUBCHANNELS]: _own, ...shipped } = runtimeClientOptions();
    isolateProgramChannels();
    const isolated = runtimeClientOptions();
    const client = (port: number, options: grpc.ChannelOptions) =>
      new PingClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), options);
    // The earlier run: its client (never closed, as the runtime leaves a run's) called an engine that then died, and
    // called again: its connection is failing, in back-off.
    const first = await pingServer(0);
    const earlier = client(first.port, shipped);
    const earlierHere = client(first.port, isolated);
    expect([await call(earlier), await call(earlierHere)]).toEqual(["pong", "pong"]);
    first.server.forceShutdown();
    expect([await call(earlier), await call(earlierHere)]).toEqual([
      expect.stringMatching(/^14 UNAVAILABLE/),
      expect.stringMatching(/^14 UNAVAILABLE/),
    ]);
    // A later engine gets the same port.
    const later = await pingServer(first.port);
    const shared = client(first.port, shipped);
    const own = client(first.port, isolated);
    try {
      // With the options as shipped, the first call fails at once, as the stack's registration did in CI.
      expect(await call(shared)).toBe("14 UNAVAILABLE: No connection established. Last error: null. Resolution note: ");
      // With the options the harness gives the runtime, it is answered.
      expect(await call(own)).toBe("pong");
    } finally {
      for (const c of [earlier, earlierHere, shared, own]) c.close();
      later.server.forceShutdown();
    }
  });
});

/** Runs `callback` outside the run's async context (the runtime's store: @pulumi/pulumi runtime/state.ts declares the global). */
function outsideRunContext(callback: () => void): void {
  const storage = (globalThis as { asyncLocalStorage?: AsyncLocalStorage<unknown> }).asyncLocalStorage;
  if (storage === undefined) throw new Error("@pulumi/pulumi keeps no global asyncLocalStorage: the runtime this test knows changed");
  storage.exit(callback);
}

describeWithCli("an inline program under the CLI", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ engine: "cli" });
  });
  afterAll(async () => {
    await cloud?.close();
  });

  it("registers with the engine a resource constructed where the run's async context was lost", async () => {
    const program = () => {
      new clouddb.Vpc("kept", { name: "kept", cidr: "10.1.0.0/16", regionCode: "us-east-1" });
      outsideRunContext(() => void new clouddb.Vpc("lost", { name: "lost", cidr: "10.2.0.0/16", regionCode: "us-east-1" }));
    };
    const made = expectNoErrors(await cloud.stack.up(program));
    expect(
      made.steps
        .filter((s) => s.op === "create")
        .map((s) => s.name)
        .sort(),
    ).toEqual(["kept", "lost"]);
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.name).sort()).toEqual(["kept", "lost"]);
    // The next up of the same program changes nothing: nothing the program declared is deleted.
    const again = expectNoErrors(await cloud.stack.up(program));
    expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
  });

  it("closes the run's clients of the engine and its monitor once the command ended", async () => {
    let store: { settings: Record<"monitor" | "engine", grpc.Client | undefined> } | undefined;
    expectNoErrors(
      await cloud.stack.up(() => {
        store = (globalThis as { asyncLocalStorage?: AsyncLocalStorage<typeof store> }).asyncLocalStorage?.getStore();
      }),
    );
    const states = ["monitor", "engine"].map((k) => store?.settings[k as "monitor" | "engine"]?.getChannel().getConnectivityState(false));
    expect(states).toEqual([grpc.connectivityState.SHUTDOWN, grpc.connectivityState.SHUTDOWN]);
  });

  it("whose program the runtime never called, its registration of the stack refused, is an error, not an empty stack", async () => {
    expectNoErrors(
      await cloud.stack.up(() => void new clouddb.Vpc("held", { name: "held", cidr: "10.3.0.0/16", regionCode: "us-east-1" })),
    );
    // The engine refuses the stack's registration as a connection left failing did (above): the program is never called.
    const refuse: grpc.Interceptor = (options, nextCall) =>
      options.method_definition.path === "/pulumirpc.Engine/SetRootResource"
        ? new grpc.InterceptingCall(nextCall(options), {
            start: (_metadata, listener) =>
              setImmediate(() =>
                listener.onReceiveStatus({
                  code: grpc.status.UNAVAILABLE,
                  details: "No connection established",
                  metadata: new grpc.Metadata(),
                }),
              ),
            sendMessage: () => undefined,
            halfClose: () => undefined,
          })
        : new grpc.InterceptingCall(nextCall(options));
    const interceptors = runtimeClientOptions().interceptors;
    interceptors.push(refuse);
    let r;
    try {
      r = await cloud.stack.up(() => void new clouddb.Vpc("held", { name: "held", cidr: "10.3.0.0/16", regionCode: "us-east-1" }));
    } finally {
      interceptors.splice(interceptors.indexOf(refuse), 1);
    }
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^harness: the command succeeded but the inline program never ran .*\nError: 14 UNAVAILABLE: No connection established/s,
      ),
    ]);
    // What the engine did, told of nothing: the VPC the stack held is gone.
    expect(r.steps.filter((s) => s.op === "delete").map((s) => s.name)).toEqual(["held"]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("that succeeded with a promise rejected and never handled is said, with the rejection's stack", async () => {
    const warned = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const r = await cloud.stack.up(() => void Promise.reject(new Error("a failure the engine never saw")));
      expect(r.errors).toEqual([]);
      expect(warned.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(
          /^harness: the command succeeded while 1 promise\(s\) of the program, or of an earlier run's, were rejected with no handler; the engine never saw them:\nError: a failure the engine never saw\n\s+at /,
        ),
      ]);
    } finally {
      warned.mockRestore();
    }
  });
});
