/**
 * What a service's create checks of what it builds on before anything is made
 * (service/operations.ts): a fork's source (its type and region, which the fork has) and the
 * VPC of its `vpcId` (its region). Each field is judged by the rule of the output that reads
 * it (framework/outputs.ts `showsReadably`): one the answer does not show readably proves no
 * conflict, and a readable one that differs refuses the create, naming it. In process: the
 * Service's core against the emulator started in this process, its answers rewritten.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { EmulatorControl, startEmulator, type RunningEmulator } from "../../emulator";
import { coreProvider } from "../../provider/framework/core";
import { serviceDefinition } from "../../provider/resources/service/definition";
import { vpcDefinition } from "../../provider/resources/vpc/definition";

let emu: RunningEmulator;
let control: EmulatorControl;
let journal: string;
const services = coreProvider(serviceDefinition);
const vpcs = coreProvider(vpcDefinition);

// Several creates against the emulator each: seconds on a loaded machine.
jest.setTimeout(60_000);

/** Creates a service named `name` through its core (each create its own journal entry); returns its id and outputs. */
function service(name: string, news: Record<string, unknown>) {
  const owner = `checks/test/clouddb:index:Service/${name}`;
  return services.create({ news: { projectId: emu.projectId, name, ...news }, owner, preview: false });
}

/** Every GET answer of the resource at `resource` (`/services/<id>`) shows `field` as `value`. */
const shown = (resource: string, field: string, value: unknown) =>
  control.rewrite({ method: "GET", path: `${resource}$`, field, value, count: 1_000 });

beforeAll(async () => {
  journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-checks-"));
  process.env.CLOUDDB_JOURNAL_DIR = journal;
  emu = await startEmulator({ port: 0, clockScale: 0 });
  control = new EmulatorControl(emu.url, emu.pat);
  // No read cache: each read of a source or a VPC is its own GET, the answer the rewrites change.
  const config: Record<string, string> = {
    "clouddb:apiUrl": emu.baseUrl,
    "clouddb:apiKey": emu.pat,
    "clouddb:projectId": emu.projectId,
    "clouddb:readCache": "off",
  };
  for (const core of [services, vpcs]) await core.configure({ get: (key: string) => config[key] } as unknown as ConfigureRequest["config"]);
});

afterEach(async () => {
  await control.send("DELETE", "/rewrites");
});

afterAll(async () => {
  await emu.close();
  fs.rmSync(journal, { recursive: true, force: true });
});

describe("a fork's source", () => {
  let source: string;
  beforeAll(async () => {
    source = (await service("source", { serviceType: "TIMESERIES", regionCode: "us-east-1" })).id;
  });

  it.each([
    ["serviceType", "service_type", "VECTOR", "TIMESERIES"],
    ["regionCode", "region_code", "eu-west-1", "us-east-1"],
  ])("%s: one the source shows readably and the program sets otherwise refuses the fork, naming it", async (property, _, asked, its) => {
    await expect(service(`fork-of-${property}`, { [property]: asked, forkFrom: { serviceId: source, strategy: "NOW" } })).rejects.toThrow(
      `${property}: a fork has its source's ${property} (${JSON.stringify(its)} for ${source}); remove ${property} or set it to that`,
    );
  });

  it.each([
    ["serviceType", "service_type", "VECTOR", "us-east-1"],
    ["regionCode", "region_code", "eu-west-1", " "],
  ])(
    "%s: one the source does not show readably proves no conflict: the fork is made, with its source's",
    async (property, field, asked, odd) => {
      await shown(`/services/${source}`, field, odd);
      const fork = await service(`odd-${property}`, { [property]: asked, forkFrom: { serviceId: source, strategy: "NOW" } });
      expect(fork.outs).toMatchObject({ serviceType: "TIMESERIES", regionCode: "us-east-1", forkedFrom: { serviceId: source } });
    },
  );
});

describe("a vpcId's VPC", () => {
  /** A VPC of the emulator's project in `regionCode`; returns its id. */
  const vpc = async (name: string, regionCode: string) =>
    (await vpcs.create({ news: { projectId: emu.projectId, name, cidr: "10.80.0.0/16", regionCode }, owner: "", preview: false })).id;

  it("in another region, as its answer shows readably, refuses the service before it is made", async () => {
    const far = await vpc("far", "eu-west-1");
    await expect(service("far-away", { regionCode: "us-east-1", vpcId: far })).rejects.toThrow(
      `vpcId: VPC ${far} is in eu-west-1, but the service is in us-east-1; a service attaches to a VPC of its own region`,
    );
  });

  it("whose region its answer does not show readably proves nothing: the service is made and attached", async () => {
    const near = await vpc("near", "us-east-1");
    await shown(`/vpcs/${near}`, "region_code", " ");
    const made = await service("near-by", { regionCode: "us-east-1", vpcId: near });
    expect(made.outs).toMatchObject({ regionCode: "us-east-1", vpcId: near });
  });
});
