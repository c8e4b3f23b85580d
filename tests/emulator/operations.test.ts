/**
 * Every one of the 32 operations over real HTTP: success status and body per CONTRACT.md.
 * Clock scale 1, moved with the clock control so every state is deterministic.
 */
import { useEmulator } from "./support/emulator-api";

const api = useEmulator();

const SHORT_ID = /^[a-z0-9]{10}$/;
const DECIMAL_ID = /^[0-9]+$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("auth", () => {
  it("GET /auth/info answers 200 with the apiKey shape for the PAT", async () => {
    const res = await api.call("GET", "/auth/info");
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("apiKey");
    expect(res.body.oauth).toBeUndefined();
    expect(res.body.apiKey.project.id).toBe(api.emu.projectId);
  });
});

describe("VPCs", () => {
  it("creates (201), lists, gets, renames (200 {message}) and deletes (204) a VPC", async () => {
    const create = await api.call("POST", api.p("/vpcs"), {
      body: { name: "main", cidr: "10.1.0.0/16", region_code: "eu-west-1" },
    });
    expect(create.status).toBe(201);
    expect(create.body).toEqual({ id: expect.stringMatching(DECIMAL_ID), name: "main", cidr: "10.1.0.0/16", region_code: "eu-west-1" });
    const id = create.body.id;

    const list = await api.call("GET", api.p("/vpcs"));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([create.body]);

    const get = await api.call("GET", api.p(`/vpcs/${id}`));
    expect(get.status).toBe(200);
    expect(get.body).toEqual(create.body);

    const rename = await api.call("POST", api.p(`/vpcs/${id}/rename`), { body: { name: "renamed" } });
    expect(rename.status).toBe(200);
    expect(rename.body).toEqual({ message: expect.any(String) });
    expect((await api.call("GET", api.p(`/vpcs/${id}`))).body.name).toBe("renamed");

    const del = await api.call("DELETE", api.p(`/vpcs/${id}`));
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await api.call("GET", api.p(`/vpcs/${id}`))).status).toBe(404);
  });
});

describe("peerings", () => {
  it("creates a pending peering (201), lists, gets it active after 3 s, and deletes it (204)", async () => {
    const vpc = await api.createVpc();
    const create = await api.call("POST", api.p(`/vpcs/${vpc.id}/peerings`), {
      body: { peer_account_id: "123456789012", peer_region_code: "us-west-2", peer_vpc_id: "vpc-abc" },
    });
    expect(create.status).toBe(201);
    expect(create.body).toEqual({
      id: expect.stringMatching(DECIMAL_ID),
      peer_account_id: "123456789012",
      peer_region_code: "us-west-2",
      peer_vpc_id: "vpc-abc",
      provisioned_id: expect.stringMatching(/^pcx-/),
      status: "pending",
    });
    const list = await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings`));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([create.body]);

    await api.advance(3_000);
    const get = await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings/${create.body.id}`));
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ ...create.body, status: "active" });

    const del = await api.call("DELETE", api.p(`/vpcs/${vpc.id}/peerings/${create.body.id}`));
    expect(del.status).toBe(204);
    expect((await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings`))).body).toEqual([]);
  });

  it("fails a peering whose peer account starts with 'invalid', with error_message", async () => {
    const vpc = await api.createVpc();
    const create = await api.call("POST", api.p(`/vpcs/${vpc.id}/peerings`), {
      body: { peer_account_id: "invalid-acct", peer_region_code: "us-east-1", peer_vpc_id: "vpc-x" },
    });
    expect(create.body.error_message).toBeUndefined();
    await api.advance(3_000);
    const get = await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings/${create.body.id}`));
    expect(get.body.status).toBe("failed");
    expect(get.body.error_message).toEqual(expect.stringContaining("invalid-acct"));
  });
});

describe("services", () => {
  it("creates a QUEUED service (202) with initial_password and the filled-in fields", async () => {
    const res = await api.call("POST", api.p("/services"), { body: { name: "db" } });
    expect(res.status).toBe(202);
    const s = res.body;
    expect(s).toEqual({
      service_id: expect.stringMatching(SHORT_ID),
      project_id: api.emu.projectId,
      name: "db",
      service_type: "TIMESERIES",
      status: "QUEUED",
      created: expect.stringMatching(RFC3339),
      region_code: "us-east-1",
      endpoint: { host: `${s.service_id}.${api.emu.projectId}.clouddb.local`, port: 5432 },
      initial_password: expect.any(String),
      ha_replicas: { replica_count: 0, sync_replica_count: 0 },
      metadata: { environment: "DEV" },
      metrics: { memory_mb: expect.any(Number), milli_cpu: expect.any(Number), storage_mb: expect.any(Number) },
      read_replica_sets: [],
      resources: [{ id: expect.any(String), spec: { cpu_millis: 500, memory_gbs: 2, volume_type: "gp3" } }],
    });
    expect(s.initial_password.length).toBeGreaterThanOrEqual(8);
  });

  it("honours every optional create field, and shows shared as 0/0", async () => {
    const res = await api.call("POST", api.p("/services"), {
      body: {
        name: "v",
        service_type: "VECTOR",
        region_code: "eu-central-1",
        cpu_millis: "shared",
        memory_gbs: "shared",
        replica_count: 2,
        environment_tag: "PROD",
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      service_type: "VECTOR",
      region_code: "eu-central-1",
      ha_replicas: { replica_count: 2, sync_replica_count: 0 },
      metadata: { environment: "PROD" },
      resources: [{ spec: { cpu_millis: 0, memory_gbs: 0 } }],
    });
  });

  it("lists (200) and gets (200) services without initial_password", async () => {
    const created = await api.createService({ name: "a" });
    const list = await api.call("GET", api.p("/services"));
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].initial_password).toBeUndefined();
    const get = await api.call("GET", api.p(`/services/${created.service_id}`));
    expect(get.status).toBe(200);
    expect(get.body.initial_password).toBeUndefined();
    const { initial_password: _ignored, ...rest } = created;
    expect(get.body).toEqual({ ...rest, status: "QUEUED" });
  });

  it("deletes a service (202, no body): DELETING, then 404", async () => {
    const s = await api.readyService();
    const del = await api.call("DELETE", api.p(`/services/${s.service_id}`));
    expect(del.status).toBe(202);
    expect(del.text).toBe("");
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("DELETING");
    await api.advance(2_000);
    const gone = await api.call("GET", api.p(`/services/${s.service_id}`));
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("NOT_FOUND");
    expect((await api.call("GET", api.p("/services"))).body).toEqual([]);
  });

  it("stops (202 PAUSING → PAUSED) and starts (202 RESUMING → READY)", async () => {
    const s = await api.readyService();
    const stop = await api.call("POST", api.p(`/services/${s.service_id}/stop`));
    expect(stop.status).toBe(202);
    expect(stop.body.status).toBe("PAUSING");
    await api.advance(2_000);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("PAUSED");
    const start = await api.call("POST", api.p(`/services/${s.service_id}/start`));
    expect(start.status).toBe(202);
    expect(start.body.status).toBe("RESUMING");
    await api.advance(2_000);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("READY");
  });

  it("attaches to (202 {message}) and detaches from (202 {message}) a VPC, showing vpcEndpoint while attached", async () => {
    const s = await api.readyService();
    const vpc = await api.createVpc();
    const attach = await api.call("POST", api.p(`/services/${s.service_id}/attachToVPC`), { body: { vpc_id: vpc.id } });
    expect(attach.status).toBe(202);
    expect(attach.body).toEqual({ message: expect.any(String) });
    const during = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect(during.status).toBe("CONFIGURING");
    expect(during.vpcEndpoint).toEqual({ vpc_id: vpc.id, host: expect.any(String), port: 5432 });
    await api.advance(3_000);
    const detach = await api.call("POST", api.p(`/services/${s.service_id}/detachFromVPC`), { body: { vpc_id: vpc.id } });
    expect(detach.status).toBe(202);
    expect(detach.body).toEqual({ message: expect.any(String) });
    const after = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect(after.vpcEndpoint).toBeUndefined();
    expect(after.status).toBe("CONFIGURING");
  });

  it("resizes (202, the Service, new size shown at once, CONFIGURING → READY)", async () => {
    const s = await api.readyService();
    const res = await api.call("POST", api.p(`/services/${s.service_id}/resize`), {
      body: { cpu_millis: "2000", memory_gbs: "8" },
    });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("CONFIGURING");
    expect(res.body.resources[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    await api.advance(3_000);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("READY");
  });

  it("enables and disables the pooler (200 {message}, idempotent), port 6432", async () => {
    const s = await api.readyService();
    for (let i = 0; i < 2; i++) {
      const en = await api.call("POST", api.p(`/services/${s.service_id}/enablePooler`));
      expect(en.status).toBe(200);
      expect(en.body).toEqual({ message: expect.any(String) });
    }
    const on = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect(on.connection_pooler).toEqual({ endpoint: { host: on.endpoint.host, port: 6432 } });
    expect(on.status).toBe("READY");
    for (let i = 0; i < 2; i++) {
      const dis = await api.call("POST", api.p(`/services/${s.service_id}/disablePooler`));
      expect(dis.status).toBe(200);
      expect(dis.body).toEqual({ message: expect.any(String) });
    }
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.connection_pooler).toBeUndefined();
  });

  it("forks (202, QUEUED, forked_from, HA 0, same type and region, initial_password, default name)", async () => {
    const s = await api.readyService({ name: "src", service_type: "RELATIONAL", region_code: "sa-east-1", replica_count: 1 });
    const res = await api.call("POST", api.p(`/services/${s.service_id}/forkService`), { body: { fork_strategy: "NOW" } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name: "src-fork",
      status: "QUEUED",
      service_type: "RELATIONAL",
      region_code: "sa-east-1",
      ha_replicas: { replica_count: 0, sync_replica_count: 0 },
      forked_from: { project_id: api.emu.projectId, service_id: s.service_id, is_standby: false },
      initial_password: expect.any(String),
      metadata: { environment: "DEV" },
    });
    expect(res.body.service_id).not.toBe(s.service_id);
  });

  it("forks with PITR at a time between the source's creation and now", async () => {
    const s = await api.readyService();
    const target = new Date(Date.parse(s.created) + 1_000).toISOString();
    const res = await api.call("POST", api.p(`/services/${s.service_id}/forkService`), {
      body: { fork_strategy: "PITR", target_time: target, name: "pitr", cpu_millis: "1000", memory_gbs: "4", environment_tag: "PROD" },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name: "pitr",
      metadata: { environment: "PROD" },
      resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }],
    });
  });

  it("updates the password (204, no body)", async () => {
    const s = await api.readyService();
    const res = await api.call("POST", api.p(`/services/${s.service_id}/updatePassword`), { body: { password: "correct horse" } });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("sets the environment (200 {message}), also when unchanged", async () => {
    const s = await api.readyService();
    for (const env of ["PROD", "PROD"]) {
      const res = await api.call("POST", api.p(`/services/${s.service_id}/setEnvironment`), { body: { environment: env } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.metadata).toEqual({ environment: "PROD" });
  });

  it("sets HA (202, the Service, CONFIGURING) with one or both counts", async () => {
    const s = await api.readyService();
    const res = await api.call("POST", api.p(`/services/${s.service_id}/setHA`), { body: { replica_count: 2, sync_replica_count: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "CONFIGURING", ha_replicas: { replica_count: 2, sync_replica_count: 1 } });
    await api.advance(3_000);
    const only = await api.call("POST", api.p(`/services/${s.service_id}/setHA`), { body: { sync_replica_count: 2 } });
    expect(only.status).toBe(202);
    expect(only.body.ha_replicas).toEqual({ replica_count: 2, sync_replica_count: 2 });
  });
});

describe("read replica sets", () => {
  it("lists, creates (202 creating → active), resizes (202 {message}), pooler, environment, deletes (202)", async () => {
    const s = await api.readyService();
    const base = api.p(`/services/${s.service_id}/replicaSets`);
    expect((await api.call("GET", base)).body).toEqual([]);

    const create = await api.call("POST", base, { body: { name: "r", nodes: 2, cpu_millis: 1000, memory_gbs: 4 } });
    expect(create.status).toBe(202);
    expect(create.body).toEqual({
      id: expect.stringMatching(SHORT_ID),
      name: "r",
      nodes: 2,
      cpu_millis: 1000,
      memory_gbs: 4,
      endpoint: { host: expect.any(String), port: 5432 },
      metadata: { environment: "DEV" },
      status: "creating",
    });
    const rs = create.body.id;
    const list = await api.call("GET", base);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([create.body]);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.read_replica_sets).toEqual([create.body]);

    await api.advance(3_000);
    expect((await api.call("GET", base)).body[0].status).toBe("active");

    const resize = await api.call("POST", `${base}/${rs}/resize`, { body: { cpu_millis: "2000", memory_gbs: 8, nodes: 3 } });
    expect(resize.status).toBe(202);
    expect(resize.body).toEqual({ message: expect.any(String) });
    expect((await api.call("GET", base)).body[0]).toMatchObject({ status: "resizing", cpu_millis: 2000, memory_gbs: 8, nodes: 3 });
    await api.advance(3_000);

    const en = await api.call("POST", `${base}/${rs}/enablePooler`);
    expect(en.status).toBe(200);
    expect(en.body).toEqual({ message: expect.any(String) });
    expect((await api.call("GET", base)).body[0].connection_pooler).toEqual({ endpoint: { host: expect.any(String), port: 6432 } });
    const dis = await api.call("POST", `${base}/${rs}/disablePooler`);
    expect(dis.status).toBe(200);
    expect((await api.call("GET", base)).body[0].connection_pooler).toBeUndefined();

    const env = await api.call("POST", `${base}/${rs}/setEnvironment`, { body: { environment: "PROD" } });
    expect(env.status).toBe(200);
    expect(env.body).toEqual({ message: expect.any(String) });
    expect((await api.call("GET", base)).body[0].metadata).toEqual({ environment: "PROD" });

    const del = await api.call("DELETE", `${base}/${rs}`);
    expect(del.status).toBe(202);
    expect(del.text).toBe("");
    expect((await api.call("GET", base)).body[0].status).toBe("deleting");
    await api.advance(3_000);
    expect((await api.call("GET", base)).body).toEqual([]);
  });
});
