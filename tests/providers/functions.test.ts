/**
 * The lookup functions, called inside a program run by the harness (they read the
 * program-side `clouddb` config), each compared with what the emulator holds.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { startCloud, writes, type Cloud } from "../../harness/cloud";
import type { Service } from "../../provider/client";

describe("functions", () => {
  let cloud: Cloud;
  let vpcId = "";
  let serviceId = "";
  let peeringId = "";
  const setIds: string[] = [];
  beforeAll(async () => {
    cloud = await startCloud();
    const { api } = cloud;
    vpcId = (await api.perform("createVpc", { body: { name: "looked-up", cidr: "10.20.0.0/16", region_code: "us-east-1" } })).id;
    await api.perform("createVpc", { body: { name: "second", cidr: "10.21.0.0/16", region_code: "eu-west-1" } });
    peeringId = (
      await api.perform("createPeering", {
        vpc: vpcId,
        body: { peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-1" },
      })
    ).id;
    const svc = await api.perform("createService", { body: { name: "looked-up-db", cpu_millis: "1000", memory_gbs: "4" } });
    serviceId = svc.service_id;
    await api.waitForService(serviceId, { until: ["READY"], timeoutMs: 10_000 });
    await api.perform("enableServicePooler", { service: serviceId });
    await api.perform("attachServiceToVpc", { service: serviceId, body: { vpc_id: vpcId } });
    await api.waitForService(serviceId, { until: ["READY"], timeoutMs: 10_000 });
    for (const name of ["rs-a", "rs-b"]) {
      const rs = await api.perform("createReplicaSet", { service: serviceId, body: { name, nodes: 2, cpu_millis: 500, memory_gbs: 2 } });
      setIds.push(rs.id);
      await api.waitForReplicaSet(serviceId, rs.id, { until: ["active"], timeoutMs: 10_000 });
    }
    const other = await api.perform("createService", { body: { name: "shared-db", cpu_millis: "shared", memory_gbs: "shared" } });
    await api.waitForService(other.service_id, { until: ["READY"], timeoutMs: 10_000 });
    await api.waitForPeering(vpcId, peeringId, { until: ["active"], timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** What the functions should say about a service the emulator holds. */
  const expectedService = (s: Service) => ({
    serviceId: s.service_id,
    projectId: cloud.emulator.projectId,
    name: s.name,
    serviceType: s.service_type,
    regionCode: s.region_code,
    status: s.status,
    created: s.created,
    host: s.endpoint!.host,
    port: s.endpoint!.port,
    connectionPooler: s.connection_pooler !== undefined,
    ...(s.connection_pooler ? { poolerHost: s.connection_pooler.endpoint!.host, poolerPort: s.connection_pooler.endpoint!.port } : {}),
    ...(s.vpcEndpoint ? { vpcId: String((s.vpcEndpoint as { vpc_id: string }).vpc_id), vpcEndpoint: s.vpcEndpoint } : {}),
    cpuMillis: s.resources![0].spec!.cpu_millis || "shared",
    memoryGbs: s.resources![0].spec!.memory_gbs || "shared",
    resources: s.resources!.map((r) => ({
      id: r.id,
      cpuMillis: r.spec!.cpu_millis || "shared",
      memoryGbs: r.spec!.memory_gbs || "shared",
      volumeType: r.spec!.volume_type,
    })),
    haReplicas: { replicaCount: s.ha_replicas!.replica_count, syncReplicaCount: s.ha_replicas!.sync_replica_count },
    environment: s.metadata!.environment,
    paused: false,
  });

  it("returns what the emulator holds, from each function and its Output variant, sending no write", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(
      await cloud.stack.up(() => ({
        auth: clouddb.getAuthInfo(),
        service: clouddb.getService({ serviceId }),
        serviceOutput: clouddb.getServiceOutput({ serviceId: pulumi.output(serviceId) }),
        services: clouddb.getServices(),
        servicesOutput: clouddb.getServicesOutput({}),
        vpc: clouddb.getVpc({ vpcId }),
        vpcOutput: clouddb.getVpcOutput({ vpcId: pulumi.output(vpcId) }),
        vpcs: clouddb.getVpcs(),
        vpcsOutput: clouddb.getVpcsOutput({}),
        peerings: clouddb.getVpcPeerings({ vpcId }),
        peeringsOutput: clouddb.getVpcPeeringsOutput({ vpcId: pulumi.output(vpcId) }),
        sets: clouddb.getReadReplicaSets({ serviceId }),
        setsOutput: clouddb.getReadReplicaSetsOutput({ serviceId: pulumi.output(serviceId) }),
        authOutput: clouddb.getAuthInfoOutput(),
      })),
    );
    const o = r.outputs;
    const { api } = cloud;

    const info = await api.perform("getAuthInfo");
    const auth = {
      type: "apiKey",
      apiKey: {
        name: info.apiKey!.name,
        created: info.apiKey!.created,
        publicKey: info.apiKey!.public_key,
        project: { id: cloud.emulator.projectId, name: info.apiKey!.project!.name, planType: info.apiKey!.project!.plan_type },
        issuingUser: info.apiKey!.issuing_user,
      },
    };
    expect(o.auth).toEqual(auth);
    expect(o.authOutput).toEqual(auth);

    const live = await api.perform("getService", { service: serviceId });
    expect(o.service).toEqual(expectedService(live));
    expect(o.serviceOutput).toEqual(o.service);
    expect(o.service).not.toHaveProperty("password");
    const all = (await api.perform("listServices")).items;
    const byId = (xs: unknown) => [...(xs as Array<{ serviceId: string }>)].sort((a, b) => a.serviceId.localeCompare(b.serviceId));
    expect(byId(o.services)).toEqual(byId(all.map(expectedService)));
    expect(byId(o.servicesOutput)).toEqual(byId(o.services));
    expect((o.services as Array<{ cpuMillis: unknown; name: string }>).find((s) => s.name === "shared-db")!.cpuMillis).toBe("shared");

    const vpcs = (await api.perform("listVpcs")).items;
    const expectedVpc = (v: (typeof vpcs)[number]) => ({
      vpcId: v.id,
      name: v.name,
      cidr: v.cidr,
      regionCode: v.region_code,
      projectId: cloud.emulator.projectId,
    });
    expect(o.vpc).toEqual(expectedVpc(vpcs.find((v) => v.id === vpcId)!));
    expect(o.vpcOutput).toEqual(o.vpc);
    const byVpc = (xs: unknown) => [...(xs as Array<{ vpcId: string }>)].sort((a, b) => a.vpcId.localeCompare(b.vpcId));
    expect(byVpc(o.vpcs)).toEqual(byVpc(vpcs.map(expectedVpc)));
    expect(byVpc(o.vpcsOutput)).toEqual(byVpc(o.vpcs));

    const peerings = (await api.perform("listPeerings", { vpc: vpcId })).items;
    expect(peerings).toHaveLength(1);
    expect(o.peerings).toEqual([
      expect.objectContaining({
        peeringId,
        vpcId,
        projectId: cloud.emulator.projectId,
        peerAccountId: "123456789012",
        peerRegionCode: "us-east-1",
        peerVpcId: "vpc-1",
        status: "active",
        provisionedId: peerings[0].provisioned_id,
      }),
    ]);
    expect(o.peeringsOutput).toEqual(o.peerings);

    const sets = (await api.perform("listReplicaSets", { service: serviceId })).items;
    const expectedSets = sets.map((s) => ({
      replicaSetId: s.id,
      serviceId,
      projectId: cloud.emulator.projectId,
      name: s.name,
      nodes: s.nodes,
      cpuMillis: s.cpu_millis,
      memoryGbs: s.memory_gbs,
      environment: s.metadata!.environment,
      connectionPooler: false,
      status: "active",
      host: s.endpoint!.host,
      port: s.endpoint!.port,
    }));
    expect(expectedSets.map((s) => s.replicaSetId).sort()).toEqual([...setIds].sort());
    expect(o.sets).toEqual(expectedSets);
    expect(o.setsOutput).toEqual(o.sets);

    expect(writes(await cloud.requests())).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });

  it("fails a lookup of a service that does not exist, naming it", async () => {
    const r = await cloud.stack.up(() => ({ service: clouddb.getService({ serviceId: "zzzzzzzzzz" }) }));
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.map((e) => e.message).join("\n")).toContain("zzzzzzzzzz");
  });

  it("reports an OAuth credential given as an override", async () => {
    const r = expectNoErrors(await cloud.stack.up(() => ({ auth: clouddb.getAuthInfo({ apiKey: cloud.emulator.oauthToken }) })));
    const info = await cloud.api.perform("getAuthInfo");
    expect(info.type).toBe("apiKey");
    expect(r.outputs.auth).toEqual({
      type: "oauth",
      oauth: { user: { id: "1001", email: "developer@clouddb.local", name: "Emulator Developer" } },
    });
  });
});
