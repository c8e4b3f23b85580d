/**
 * The shared plan in the native SDKs' form (0/0) under the real CLI, with a Pulumi YAML program:
 * `up` makes the service on the shared plan and the program reads 0; a stack whose state
 * records 0.2.0's `"shared"` (written in with `pulumi stack import`) plans an update of the
 * service, which sends the API nothing and records 0, and then plans nothing.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { ClouddbClient } from "../../../provider/client";
import { CliStack, cliWorkspace, describeWithCli, emulator } from "./support";

const PROGRAM = `name: clouddb-shared-plan
runtime: yaml
resources:
  db:
    type: clouddb:index:Service
    properties:
      name: small
      cpuMillis: 0
      memoryGbs: 0
outputs:
  cpu: \${db.cpuMillis}
  memory: \${db.memoryGbs}
`;

type Props = Record<string, unknown>;

describeWithCli("the shared plan as 0/0, under the real CLI", () => {
  let emu: RunningEmulator;
  let api: ClouddbClient;
  let control: EmulatorControl;
  let stack: CliStack;
  beforeAll(async () => {
    emu = await emulator();
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    control = new EmulatorControl(emu.url, emu.pat);
    const ws = await cliWorkspace("native-shared-plan");
    const dir = path.join(ws.work, "program");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM);
    stack = new CliStack(dir, ws.env);
    await stack.pulumi("stack", "init", "dev");
    await stack.pulumi("config", "set", "clouddb:apiUrl", emu.baseUrl);
    await stack.pulumi("config", "set", "--secret", "clouddb:apiKey", emu.pat);
    await stack.pulumi("config", "set", "clouddb:projectId", emu.projectId);
  });
  afterAll(async () => {
    await stack?.pulumiMayFail("destroy", "--yes", "--skip-preview");
    stack?.close();
    await api?.close();
    await emu?.close();
  });

  it('makes the service shared and reads 0; state of 0.2.0 with "shared" is one update that sends nothing and records 0', async () => {
    await stack.pulumi("up", "--yes", "--skip-preview");
    expect(await stack.outputs()).toEqual({ cpu: 0, memory: 0 });
    const db = (await stack.exported()).resources.find((r) => r.urn.endsWith("::db"))!;
    expect((await api.perform("getService", { service: db.id! })).resources?.[0]?.spec).toMatchObject({ cpu_millis: 0, memory_gbs: 0 });
    expect(await stack.plannedSteps()).toEqual([]);

    // The state as plugin 0.2.0 wrote it: "shared" in the outputs, `resources[]` and the inputs.
    const doc = JSON.parse((await stack.pulumi("stack", "export")).stdout) as {
      deployment: { resources: Array<{ urn: string; inputs: Props; outputs: Props }> };
    };
    const older = (v: Props): Props => ({ ...v, cpuMillis: "shared", memoryGbs: "shared" });
    for (const r of doc.deployment.resources.filter((x) => x.urn.endsWith("::db"))) {
      r.inputs = older(r.inputs);
      r.outputs = { ...older(r.outputs), resources: (r.outputs.resources as Props[]).map(older) };
    }
    const file = path.join(stack.dir, "older.json");
    fs.writeFileSync(file, JSON.stringify(doc));
    await stack.pulumi("stack", "import", "--file", file);

    expect(await stack.plannedSteps()).toEqual(["update db"]);
    await control.clearRequests();
    await stack.pulumi("up", "--yes", "--skip-preview");
    expect((await control.requests()).filter((r) => r.method !== "GET")).toEqual([]);
    const updated = (await stack.exported()).resources.find((r) => r.urn.endsWith("::db"))!;
    expect(updated.outputs).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
    expect((updated.outputs!.resources as Props[])[0]).toMatchObject({ cpuMillis: 0, memoryGbs: 0 });
    expect(await stack.outputs()).toEqual({ cpu: 0, memory: 0 });
    expect(await stack.plannedSteps()).toEqual([]);
  });
});
