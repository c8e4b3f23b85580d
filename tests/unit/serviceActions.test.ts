/**
 * The Service's action table (SERVICE_ACTIONS in service/definition.ts), in process: which
 * actions a difference needs, in the order they run (resume first, pause last, a VPC's detach
 * before the new one's attach).
 */
import type { Service } from "../../provider/client";
import type { ConvergeContext } from "../../provider/resources/service/convergence";
import { SERVICE_ACTIONS, serviceOutputs, type DesiredService } from "../../provider/resources/service/definition";

/** A live service: READY, defaults, no pooler, no VPC. */
function live(over: Partial<Service> = {}): Service {
  return {
    service_id: "abcdefghij",
    project_id: "proj000001",
    name: "db",
    service_type: "TIMESERIES",
    region_code: "us-east-1",
    status: "READY",
    created: "2026-11-26T00:00:00Z",
    resources: [{ id: "r", spec: { cpu_millis: 500, memory_gbs: 2, volume_type: "gp3" } }],
    ha_replicas: { replica_count: 0, sync_replica_count: 0 },
    metadata: { environment: "DEV" },
    ...over,
  };
}

/** What the service as it is would want: nothing to do. */
function wantOf(s: Service, over: Partial<DesiredService> = {}): DesiredService {
  const outs = serviceOutputs(s, { password: "pw-000000" });
  return {
    name: outs.name,
    serviceType: outs.serviceType,
    regionCode: outs.regionCode,
    forkFrom: null,
    cpuMillis: outs.cpuMillis,
    memoryGbs: outs.memoryGbs,
    haReplicas: outs.haReplicas,
    environment: outs.environment,
    connectionPooler: outs.connectionPooler,
    vpcId: outs.vpcId ?? null,
    password: "pw-000000",
    paused: outs.paused,
    projectId: outs.projectId,
    timeouts: null,
    ...over,
  } as DesiredService;
}

const ctx = { recordedPassword: "pw-000000" } as ConvergeContext;
const needed = (s: Service, want: DesiredService): string[] => SERVICE_ACTIONS.filter((a) => a.needed(s, want, ctx)).map((a) => a.name);

describe("the Service's actions", () => {
  it("needs none when the live service is what is wanted", () => {
    expect(needed(live(), wantOf(live()))).toEqual([]);
  });

  it("needs one action per difference, in the table's order", () => {
    const s = live();
    expect(
      needed(s, wantOf(s, { environment: "PROD", cpuMillis: 1000, memoryGbs: 4, connectionPooler: true, password: "pw-111111" })),
    ).toEqual(["resize", "setEnvironment", "pooler", "updatePassword"]);
  });

  it("resumes a paused service to change it and pauses it again last when it is to stay paused", () => {
    const paused = live({ status: "PAUSED" });
    expect(needed(paused, wantOf(paused, { environment: "PROD" }))).toEqual(["start", "setEnvironment"]);
    const resumed = live();
    expect(needed(resumed, wantOf(paused, { environment: "PROD" }))).toEqual(["setEnvironment", "stop"]);
  });

  it("moves a service between VPCs by detaching before attaching", () => {
    const attached = live({ vpcEndpoint: { vpc_id: "7", host: "h", port: 5432 } });
    expect(needed(attached, wantOf(attached, { vpcId: "8" }))).toEqual(["detachFromVpc", "attachToVpc"]);
    expect(needed(attached, wantOf(attached, { vpcId: null }))).toEqual(["detachFromVpc"]);
  });
});
