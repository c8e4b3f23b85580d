/**
 * The native plugin's start: it prints its port before it loads the provider (zod's schemas,
 * the resource types: provider/native/main.ts), and every request is still answered as by a
 * provider loaded before the port, the first ones sent at once among them; a request that
 * comes before the provider is loaded loads it, and a provider that cannot be loaded is that
 * request's error.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as grpcTypes from "@grpc/grpc-js";
import { REPO_ROOT } from "../../harness";
import { fromStruct, providerpb, toStruct } from "../../provider/native/protos";
import { ClouddbProvider } from "../../provider/native/provider";
import { providerService } from "../../provider/native/server";
import { NativePlugin, urnOf } from "./support";

const API = { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "start-key", projectId: "start00001" };
const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("the native plugin's start", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-first-start-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints its port before it loads the provider, and answers the requests sent at once after it as a loaded provider does", async () => {
    const order = path.join(dir, "order");
    const plugin = await NativePlugin.start({
      NODE_OPTIONS: `--require ${path.join(__dirname, "fixtures", "startOrder.js")}`,
      START_ORDER_FILE: order,
    });
    try {
      const [configured, checked, bad, schema] = await Promise.all([
        plugin.configure(API),
        plugin.check(urnOf("Service", "db"), { name: "first" }),
        plugin.check(urnOf("Service", "db2"), { name: 5 }),
        plugin.schema(),
      ]);
      expect(configured).toEqual({ supportsPreview: true, acceptSecrets: true });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.name).toBe("first");
      expect(bad.failures.map((f) => f.property)).toEqual(["name"]);
      expect(schema.version).toBe(PACKAGE_VERSION);
      expect(fs.readFileSync(order, "utf8").trim().split("\n")).toEqual(["port", "provider"]);
    } finally {
      await plugin.close();
    }
  });

  /** Calls a unary handler of `service` as gRPC does; its answer or error. */
  const call = <Req, Res = unknown>(handler: unknown, request: Req): Promise<Res> =>
    new Promise((resolve, reject) =>
      (handler as grpcTypes.handleUnaryCall<Req, Res>)(
        { request } as grpcTypes.ServerUnaryCall<Req, Res>,
        (e: Partial<grpcTypes.StatusObject> | null, res?: Res | null) => (e ? reject(new Error(e.details)) : resolve(res as Res)),
      ),
    );

  it("loads the provider for a request that comes before it was loaded, and answers it as a loaded provider does", async () => {
    let provider: ClouddbProvider | undefined;
    let loads = 0;
    const service = providerService(() => {
      if (provider === undefined) {
        loads += 1;
        provider = new ClouddbProvider({ log: async () => undefined });
      }
      return provider;
    });
    const handshake = await call<providerpb.ProviderHandshakeRequest, providerpb.ProviderHandshakeResponse>(
      service.handshake,
      new providerpb.ProviderHandshakeRequest(),
    );
    expect([handshake.getAcceptSecrets(), loads]).toEqual([true, 0]);
    const configured = await call<providerpb.ConfigureRequest, providerpb.ConfigureResponse>(
      service.configure,
      new providerpb.ConfigureRequest().setArgs(toStruct(API)).setAcceptsecrets(true),
    );
    expect([configured.getSupportspreview(), loads]).toEqual([true, 1]);
    const checked = await call<providerpb.CheckRequest, providerpb.CheckResponse>(
      service.check,
      new providerpb.CheckRequest()
        .setUrn(urnOf("Service", "db"))
        .setOlds(toStruct({}))
        .setNews(toStruct({ name: "early" })),
    );
    expect([fromStruct(checked.getInputs()).name, checked.getFailuresList().length, loads]).toEqual(["early", 0, 1]);
  });

  it("answers a request with the provider's load failure when it cannot be loaded", async () => {
    const service = providerService(() => {
      throw new Error("cannot load the provider: disk gone");
    });
    await expect(
      call(
        service.check,
        new providerpb.CheckRequest()
          .setUrn(urnOf("Service", "db"))
          .setOlds(toStruct({}))
          .setNews(toStruct({ name: "x" })),
      ),
    ).rejects.toThrow("cannot load the provider: disk gone");
  });
});
