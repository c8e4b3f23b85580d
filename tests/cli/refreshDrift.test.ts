/**
 * What `pulumi refresh` prints of a dynamic resource that drifted (issue 40, item 11): exactly
 * the drift. The CLI shows a dynamic resource's refresh as its old inputs against the inputs
 * the Read returned (framework/refreshedInputs.ts); a Read that returned every property listed
 * each one the program never set as added (`[diff: +cpuMillis +haReplicas ... ~environment]`).
 * A property the program never set that drifted is shown added (`+haReplicas`): its value
 * enters the inputs, where `ignoreChanges` keeps it. A TypeScript project on disk, run by the
 * real CLI as a user runs it, against the emulator.
 */
import { describeWithCli } from "../../harness/cli/tools";
import { useDeployedProject } from "./support/typescriptProject";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const db = new clouddb.Service("db", {
  name: "drifting",
  environment: "DEV",
  connectionPooler: true,
  password: pulumi.secret("a-password-of-mine"),
});
export const id = db.serviceId;
`;

describeWithCli("pulumi refresh of a dynamic resource that drifted", (tools) => {
  const deployed = useDeployedProject(tools, "drifting", PROGRAM);

  it("shows the drifted property alone (one the program never set as added), and keeps the password the program set secret", async () => {
    const { api, project } = deployed();
    const id = (await api.perform("listServices")).items[0].service_id;
    await api.perform("setServiceEnvironment", { service: id, body: { environment: "PROD" } });
    const r = await project.expect(["refresh", "--yes", "--skip-preview"]);
    expect(r.stdout).toMatch(/pulumi-nodejs:dynamic\/clouddb:Service db updated .*\[diff: ~environment\]/);
    expect(r.stdout).not.toMatch(/\[diff: [^\]]*\+/);
    const state = await project.exportState();
    expect(state).not.toContain("a-password-of-mine");
    const db = (
      JSON.parse(state) as { deployment: { resources: Array<{ urn: string; inputs?: Record<string, unknown> }> } }
    ).deployment.resources.find((x) => x.urn.endsWith("::db"))!;
    expect(db.inputs?.environment).toBe("PROD");
    expect(db.inputs?.password).toMatchObject({ ciphertext: expect.any(String) });
    // A property the program never set: shown added, alone.
    await api.perform("setServiceHA", { service: id, body: { replica_count: 1 } });
    await api.waitForService(id, { until: ["READY"], timeoutMs: 30_000 });
    const unset = await project.expect(["refresh", "--yes", "--skip-preview"]);
    expect(unset.stdout).toMatch(/pulumi-nodejs:dynamic\/clouddb:Service db updated .*\[diff: \+haReplicas\]/);
    // The next up puts the drift back, and a refresh after it finds nothing.
    await project.expect(["up", "--yes", "--skip-preview"]);
    const back = await api.perform("getService", { service: id });
    expect([back.metadata?.environment, back.ha_replicas?.replica_count]).toEqual(["DEV", 0]);
    await project.expect(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  });
});
