/**
 * A YAML program on the native plugin, under the real CLI, meets values no rule takes and
 * configuration of the wrong type (issue 40, items 1 and 11): a service whose region, type and
 * name the API shows blank, and a VPC whose CIDR and region it shows as another field's value,
 * are refreshed with nothing recorded (a warning under each), and the next `preview` and `up`
 * replace nothing and send no write; `pulumi import` of an id whose answer shows the region
 * blank records nothing, naming it; and a structured `clouddb:apiKey` (a map in the stack's
 * config) fails the preview naming the key and its type, never its value.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { ClouddbClient } from "../../../provider/client";
import { CliStack, cliWorkspace, describeWithCli, emulator } from "./support";

const PROGRAM = `name: clouddb-unreadable
runtime: yaml
resources:
  net:
    type: clouddb:index:Vpc
    properties:
      name: odd-net
      cidr: 10.61.0.0/16
      regionCode: us-east-1
  db:
    type: clouddb:index:Service
    properties:
      name: odd-db
      vpcId: \${net.vpcId}
outputs:
  regionCode: \${db.regionCode}
  cidr: \${net.cidr}
`;

describeWithCli("the native plugin meets values no rule takes, under the real CLI", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  let control: EmulatorControl;
  let api: ClouddbClient;
  beforeAll(async () => {
    emu = await emulator();
    control = new EmulatorControl(emu.url, emu.pat);
    api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    const ws = await cliWorkspace("native-unreadable");
    const dir = path.join(ws.work, "program");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM);
    stack = new CliStack(dir, ws.env);
    await stack.pulumi("stack", "init", "dev");
    await stack.pulumi("config", "set", "clouddb:apiUrl", emu.baseUrl);
    await stack.pulumi("config", "set", "--secret", "clouddb:apiKey", emu.pat);
    await stack.pulumi("config", "set", "clouddb:projectId", emu.projectId);
    await stack.pulumi("config", "set", "clouddb:pollInterval", "20ms");
    await stack.pulumi("up", "--yes", "--skip-preview");
    await stack.pulumi("refresh", "--yes", "--skip-preview");
  });
  afterAll(async () => {
    await control?.call("DELETE", "/rewrites");
    await stack?.pulumiMayFail("destroy", "--yes", "--skip-preview");
    stack?.close();
    await api?.close();
    await emu?.close();
  });

  /** Each resource's outputs as state holds them, a secret as `[secret]` (each write encrypts it anew). */
  const outputsOf = async () =>
    JSON.parse(
      JSON.stringify(
        Object.fromEntries(
          (await stack.exported()).resources.filter((r) => r.id !== undefined).map((r) => [r.urn.split("::").pop(), r.outputs]),
        ),
      ),
      (_k, v: unknown) => (v !== null && typeof v === "object" && "ciphertext" in v ? "[secret]" : v),
    ) as unknown;
  const writes = async () => (await control.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

  it('a service whose region (and type, name) the API shows as "": refresh records nothing and warns; preview and up replace nothing and send nothing', async () => {
    const rewrite = (p: string, field: string, value: unknown) => control.rewrite({ method: "GET", path: p, field, value, count: 10_000 });
    await rewrite("/services(/[a-z0-9]+)?$", "region_code", "");
    await rewrite("/services(/[a-z0-9]+)?$", "service_type", " ");
    await rewrite("/services(/[a-z0-9]+)?$", "name", "\t");
    await rewrite("/vpcs/[0-9]+$", "cidr", "us-east-1");
    await rewrite("/vpcs/[0-9]+$", "region_code", "10.61.0.0/16");
    const before = await outputsOf();
    await control.clearRequests();
    const refreshed = await stack.pulumi("refresh", "--yes", "--skip-preview");
    expect(refreshed.stdout).toMatch(
      /service [a-z0-9]+: the API's answer does not show `name`, `service_type`, `region_code` in a shape the provider can read; keeping name, serviceType, regionCode as recorded/,
    );
    expect(refreshed.stdout).toMatch(/VPC \d+: the API's answer does not show `cidr`, `region_code`/);
    expect(await outputsOf()).toEqual(before);
    expect(await stack.plannedSteps()).toEqual([]);
    const up = await stack.pulumi("up", "--yes", "--skip-preview");
    expect(up.stdout).not.toMatch(/replace/);
    expect(await writes()).toEqual([]);
    expect((await stack.outputs()).regionCode).toBe("us-east-1");
    expect((await api.perform("listServices")).items).toHaveLength(1);
  });

  it("pulumi import of a service whose answer shows its region blank records nothing, saying why", async () => {
    await control.rewrite({ method: "GET", path: "/services(/[a-z0-9]+)?$", field: "region_code", value: "", count: 10_000 });
    const id = (await api.perform("listServices")).items[0].service_id;
    const r = await stack.pulumiMayFail("import", "clouddb:index:Service", "imported", id, "--yes", "--generate-code=false");
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}\n${r.stderr}`).toMatch(new RegExp(`clouddb\\.Service ${id} is not imported: .*regionCode is "": `));
    expect((await stack.exported()).resources.map((x) => x.urn.split("::").pop())).not.toContain("imported");
  });

  it("a structured clouddb:apiKey (a map under the key) fails the preview naming the key and its type, never its value", async () => {
    await control.call("DELETE", "/rewrites");
    await stack.pulumi("config", "rm", "clouddb:apiKey");
    await stack.pulumi("config", "set", "--secret", "--path", "clouddb:apiKey.token", "sk-structured-9876");
    try {
      const r = await stack.pulumiMayFail("preview");
      expect(r.code).not.toBe(0);
      const shown = `${r.stdout}\n${r.stderr}`;
      expect(shown).toContain(
        "clouddb:apiKey / CLOUDDB_API_KEY (from clouddb:apiKey): an object (a structured config value, which arrives as JSON) where a string is expected",
      );
      expect(shown).not.toContain("sk-structured-9876");
    } finally {
      await stack.pulumi("config", "rm", "clouddb:apiKey");
      await stack.pulumi("config", "set", "--secret", "clouddb:apiKey", emu.pat);
    }
  });
});
