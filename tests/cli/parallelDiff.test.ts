/**
 * The engine's diffs in parallel (`PULUMI_PARALLEL_DIFF=true`), which README's "How it scales"
 * offers large stacks: the engine asks for each resource's Diff on its step workers, beside the
 * others', instead of one after another in the step generator. With this provider the plan and
 * what `up` does must be the ones it makes without it: an update in place, a replacement whose
 * new VPC is made before the old is deleted, a resource left the same. A TypeScript project on
 * disk, run by the real CLI as a user runs it, against the emulator; the engine's own log
 * (`-v=4`) shows which way it diffed. (tests/harness/parity.test.ts runs its scenarios both ways
 * on the CLI too.)
 */
import type { CommandResult } from "../../harness/cli/cliProject";
import { diffedOnStepWorkers, PARALLEL_DIFF, STEP_LOG_ARGS } from "../../harness/cli/parallelDiff";
import { describeWithCli } from "../../harness/cli/tools";
import { useDeployedProject } from "./support/typescriptProject";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const net = new clouddb.Vpc("net", { name: "pd-net", cidr: config.require("cidr"), regionCode: "us-east-1" });
const db = new clouddb.Service("db", { name: "pd-db", environment: config.require("environment") as "DEV" | "PROD", vpcId: net.vpcId });
new clouddb.Service("other", { name: "pd-other" });
export const netId = net.vpcId;
export const dbVpc = db.vpcId;
`;

/** The plan as printed: each resource's line (its operation, name and diff), and the summary. */
const plan = (r: CommandResult): string[] =>
  r.stdout
    .split("\n")
    .filter((l) => /^\s+(\+-|[~+-]|=)\s/.test(l) || /^\s+\S.* (to update|to replace|unchanged)$/.test(l))
    .map((l) => l.replace(/\s+/g, " ").trim());

describeWithCli("the engine's diffs in parallel (PULUMI_PARALLEL_DIFF=true)", (tools) => {
  const deployed = useDeployedProject(tools, "paralleldiff", PROGRAM, { cidr: "10.40.0.0/16", environment: "DEV" });

  it("plans the same update, replacement and unchanged resource as the engine's diffs one after another, and up makes it", async () => {
    const { api, project } = deployed();
    await project.config({ cidr: "10.41.0.0/16", environment: "PROD" });
    const serial = await project.expect(["preview", ...STEP_LOG_ARGS]);
    const parallel = await project.expect(["preview", ...STEP_LOG_ARGS], undefined, PARALLEL_DIFF);
    // Which way the engine diffed: on its step workers only with the setting (the dynamic host's default provider too).
    expect(diffedOnStepWorkers(serial.stderr)).toEqual([]);
    expect(diffedOnStepWorkers(parallel.stderr)).toEqual(["db", "default", "net", "other"]);
    expect(plan(parallel)).toEqual(plan(serial));
    expect(plan(serial).join("\n")).toMatch(/~ pulumi-nodejs:dynamic\/clouddb:Service db update \[diff: ~environment,vpcId\]/);
    expect(plan(serial).join("\n")).toMatch(/\+- pulumi-nodejs:dynamic\/clouddb:Vpc net replace \[diff: ~cidr\]/);
    expect(plan(serial).join("\n")).not.toMatch(/ other /);

    const before = await api.perform("listVpcs");
    await project.expect(["up", "--yes", "--skip-preview"], undefined, PARALLEL_DIFF);
    const vpcs = (await api.perform("listVpcs")).items;
    expect(vpcs.map((v) => v.cidr)).toEqual(["10.41.0.0/16"]);
    expect(vpcs[0].id).not.toBe(before.items[0].id);
    const services = (await api.perform("listServices")).items;
    const db = services.find((s) => s.name === "pd-db")!;
    expect(db.metadata?.environment).toBe("PROD");
    const outputs = JSON.parse((await project.expect(["stack", "output", "--json"])).stdout) as Record<string, string>;
    expect(outputs).toEqual({ netId: vpcs[0].id, dbVpc: vpcs[0].id });
    expect(services.find((s) => s.name === "pd-other")?.metadata?.environment).toBe("DEV");
    await project.expect(["up", "--yes", "--skip-preview", "--expect-no-changes"], undefined, PARALLEL_DIFF);
  });
});
