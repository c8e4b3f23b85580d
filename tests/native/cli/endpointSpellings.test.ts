/**
 * One endpoint, spelled two ways, on the native plugin under the real CLI (issue 40, item 3): a
 * Pulumi YAML program's `up` interrupted while its create was under way (the plugin killed once
 * the API has the create and before its answer comes), then an `up` whose `clouddb:apiUrl` names
 * the same API otherwise (a trailing slash, the scheme and host in capitals). The second takes
 * over what the first made: the journal's entries are keyed by the endpoint in its one form.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { ClouddbClient } from "../../../provider/client";
import { until } from "../../../harness";
import { holdCreateAnswer } from "../../resilience/support/interrupted";
import { cliWorkspace, CliStack, describeWithCli, emulator, journalEntriesIn, killPlugins, run } from "./support";

const PROGRAM = `name: endpoint-spellings
runtime: yaml
resources:
  net:
    type: clouddb:index:Vpc
    properties:
      cidr: 10.61.0.0/16
      regionCode: us-east-1
outputs:
  vpcId: \${net.id}
`;

describeWithCli("an interrupted create and the next up naming the same API otherwise, on the native plugin under the real CLI", () => {
  let emu: RunningEmulator;
  let control: EmulatorControl;
  let api: ClouddbClient;
  let stack: CliStack | undefined;
  beforeAll(async () => {
    emu = await emulator();
    control = new EmulatorControl(emu.url, emu.pat);
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  });
  afterAll(async () => {
    stack?.close();
    await api.close();
    await emu?.close();
  });

  it("a trailing slash and capitals: the first up's VPC is taken over, never a second", async () => {
    const ws = await cliWorkspace("endpoint-spellings");
    const dir = path.join(ws.work, "program");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM);
    const s = new CliStack(dir, ws.env);
    stack = s;
    const port = new URL(emu.baseUrl).port;
    await s.pulumi("stack", "init", "dev");
    await s.pulumi("config", "set", "clouddb:apiUrl", `http://localhost:${port}/public/api/v1`);
    await s.pulumi("config", "set", "--secret", "clouddb:apiKey", emu.pat);
    await s.pulumi("config", "set", "clouddb:projectId", emu.projectId);
    await s.pulumi("config", "set", "clouddb:pollInterval", "20ms");
    await s.pulumi("config", "set", "clouddb:pollMaxInterval", "200ms");
    const journal = s.env.CLOUDDB_JOURNAL_DIR!;
    const posts = async () => (await control.requests()).filter((r) => r.method === "POST" && /\/vpcs$/.test(r.path)).length;

    await control.clearRequests();
    const carriedOut = await holdCreateAnswer(control, /\/vpcs$/, 120_000);
    const running = run("pulumi", ["up", "--yes", "--skip-preview"], { cwd: dir, env: s.env });
    await until("the journalled create", async () => (journalEntriesIn(journal).length > 0 ? true : undefined), 120_000);
    await carriedOut(); // the POST is carried out, its answer held back
    killPlugins(s.env.PULUMI_HOME!);
    expect((await running).code).not.toBe(0);
    await control.send("DELETE", "/faults");
    expect(await posts()).toBe(1);

    await s.pulumi("config", "set", "clouddb:apiUrl", `HTTP://LOCALHOST:${port}/public/api/v1/`);
    const again = await s.pulumiMayFail("up", "--yes", "--skip-preview");
    expect(again.code).toBe(0);
    const vpcs = (await api.perform("listVpcs")).items;
    expect(vpcs).toHaveLength(1);
    const state = await s.exported();
    expect(state.resources.filter((r) => r.type === "clouddb:index:Vpc").map((r) => r.id)).toEqual([vpcs[0].id]);
    expect(await posts()).toBe(1);
    expect(journalEntriesIn(journal)).toEqual([]);
    await s.pulumi("destroy", "--yes", "--skip-preview");
    expect((await api.perform("listVpcs")).items).toEqual([]);
  });
});
