/**
 * The core's own requests (framework/coreProvider.ts), in process: what a host is told about
 * a call reaches the core as a request field, not as an input. The owner names what `check`
 * makes up; a preview says what the outputs will be and sends nothing (the API configured
 * here is a closed port: a request would fail); the engine's timeout bounds the call, never
 * what state records.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { coreProvider } from "../../provider/framework/core";
import { ADOPTED_KEY } from "../../provider/framework/adoption";
import { AUTONAMED_KEY, OWNER_KEY } from "../../provider/framework/internalInputs";
import { UNKNOWN } from "../../provider/framework/unknowns";
import { serviceDefinition } from "../../provider/resources/service/definition";

const core = coreProvider(serviceDefinition);
const INPUTS = { cpuMillis: 1000, memoryGbs: 4, environment: "PROD", projectId: "proj000001", timeouts: { create: "1h" } };

describe("the core's requests", () => {
  beforeAll(async () => {
    // A closed port: a call that sent a request would fail. Pulumi's Config: only `get` is read.
    const config: Record<string, string> = { "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "key" };
    await core.configure({ get: (key: string) => config[key] } as unknown as ConfigureRequest["config"]);
  });

  it("makes a name up from the request's owner, with no __owner among the inputs it returns", async () => {
    const { inputs, failures } = await core.check({ olds: {}, news: INPUTS, owner: "proj/dev/clouddb:index:Service/orders" });
    expect(failures).toEqual([]);
    expect(inputs.name).toMatch(/^orders-[0-9a-f]{7}$/);
    expect(inputs[AUTONAMED_KEY]).toBe(true);
    expect(inputs).not.toHaveProperty(OWNER_KEY);
  });

  it("previews a create from the preview flag: set outputs known, the rest unknown, the program's timeouts recorded", async () => {
    const news = { ...INPUTS, name: "orders" };
    const { id, outs } = await core.create({ news, owner: "", preview: true, engineTimeoutSeconds: 5 });
    expect(id).toBe("");
    expect(outs).toMatchObject({ name: "orders", cpuMillis: 1000, projectId: "proj000001", serviceId: UNKNOWN });
    expect(outs.timeouts).toEqual({ create: "1h" });
    expect(outs[ADOPTED_KEY]).toBe(false);
  });

  it("previews an update from the preview flag: the recorded outputs with what the inputs set", async () => {
    const olds = { serviceId: "abcdefghij", name: "orders", cpuMillis: 1000, memoryGbs: 4, status: "READY" };
    const { outs } = await core.update({
      id: "abcdefghij",
      olds,
      news: { ...INPUTS, name: "orders", cpuMillis: UNKNOWN },
      owner: "",
      preview: true,
    });
    expect(outs).toMatchObject({ serviceId: "abcdefghij", status: "READY", cpuMillis: UNKNOWN, memoryGbs: 4 });
  });
});
