/**
 * A table of bad requests: each answers the contract's status and error body, and
 * changes nothing (every list answer is the same before and after).
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorApi, type CallOptions } from "./support/emulator-api";

let emu: RunningEmulator;
let api: EmulatorApi;
/** Fixtures made once: a READY service attached to a VPC, a free READY service, VPCs, a peering, a replica set. */
const f = {
  svc: "",
  attached: "",
  vpc: "",
  otherRegionVpc: "",
  secondEastVpc: "",
  peering: "",
  rs: "",
  created: "",
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clockScale: 1 });
  api = new EmulatorApi(emu);
  const svc = await api.createService({ name: "free" });
  const attached = await api.createService({ name: "attached" });
  f.svc = svc.service_id;
  f.created = svc.created;
  f.attached = attached.service_id;
  f.vpc = (await api.createVpc({ name: "east" })).id;
  f.secondEastVpc = (await api.createVpc({ name: "east-2", cidr: "10.3.0.0/16" })).id;
  f.otherRegionVpc = (await api.createVpc({ name: "west", region_code: "eu-west-1", cidr: "10.2.0.0/16" })).id;
  f.peering = (
    await api.call("POST", api.p(`/vpcs/${f.otherRegionVpc}/peerings`), {
      body: { peer_account_id: "111", peer_region_code: "us-east-1", peer_vpc_id: "vpc-1" },
    })
  ).body.id;
  await api.advance(7_000);
  expect((await api.call("POST", api.p(`/services/${f.attached}/attachToVPC`), { body: { vpc_id: f.vpc } })).status).toBe(202);
  const rs = await api.call("POST", api.p(`/services/${f.svc}/replicaSets`), {
    body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
  });
  f.rs = rs.body.id;
  await api.advance(3_000);
});
afterAll(() => emu.close());

/** Everything the lists show, in both projects. */
async function everything(): Promise<unknown> {
  const out: unknown[] = [];
  for (const project of [emu.projectId, emu.secondProjectId]) {
    const opts: CallOptions = { token: emu.oauthToken };
    const vpcs = (await api.call("GET", api.p("/vpcs", project), opts)).body as Array<{ id: string }>;
    const peerings = [];
    for (const vpc of vpcs) peerings.push((await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings`, project), opts)).body);
    const services = (await api.call("GET", api.p("/services", project), opts)).body;
    out.push({ vpcs, peerings, services });
  }
  return out;
}

interface BadCase {
  name: string;
  method: string;
  path: () => string;
  options?: () => CallOptions;
  /** Send to the server root instead of the base URL. */
  outsideBase?: boolean;
  status: number;
  code: string;
  details?: RegExp | (() => RegExp);
}

const svcPath = (rest = "") => api.p(`/services/${f.svc}${rest}`);
const rsPath = (rest = "") => svcPath(`/replicaSets/${f.rs}${rest}`);
const body = (b: unknown) => () => ({ body: b });
const vpcBody = (over: Record<string, unknown>) => body({ name: "n", cidr: "10.9.0.0/16", region_code: "us-east-1", ...over });
const svcBody = (over: Record<string, unknown>) => body({ name: "s", ...over });
const rsBody = (over: Record<string, unknown>) => body({ name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2, ...over });
const minutesAfterCreated = (m: number) => new Date(Date.parse(f.created) + m * 60_000).toISOString();

const cases: BadCase[] = [
  // VPCs
  {
    name: "VPC without name",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: body({ cidr: "10.0.0.0/16", region_code: "us-east-1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  {
    name: "VPC without cidr",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: body({ name: "n", region_code: "us-east-1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /cidr/,
  },
  {
    name: "VPC name of wrong type",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ name: 5 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  {
    name: "VPC empty name",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ name: "" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  {
    name: "VPC name with control characters",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ name: "a\u0007b" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /control/,
  },
  {
    name: "VPC name of 129 characters",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ name: "x".repeat(129) }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /128/,
  },
  {
    name: "malformed CIDR",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ cidr: "10.0.0/16" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /cidr/,
  },
  {
    name: "CIDR with host bits set",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ cidr: "10.0.0.1/16" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /host bits/,
  },
  {
    name: "CIDR prefix /15",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ cidr: "10.0.0.0/15" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /\/16 to \/28/,
  },
  {
    name: "CIDR prefix /29",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ cidr: "10.0.0.0/29" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /\/16 to \/28/,
  },
  {
    name: "VPC in an unknown region",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: vpcBody({ region_code: "mars-1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /region_code.*us-east-1/,
  },
  {
    name: "rename without name",
    method: "POST",
    path: () => api.p(`/vpcs/${f.vpc}/rename`),
    options: body({}),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  { name: "unknown VPC id", method: "GET", path: () => api.p("/vpcs/424242"), status: 404, code: "NOT_FOUND" },
  { name: "delete unknown VPC", method: "DELETE", path: () => api.p("/vpcs/424242"), status: 404, code: "NOT_FOUND" },
  {
    name: "delete a VPC with a service attached",
    method: "DELETE",
    path: () => api.p(`/vpcs/${f.vpc}`),
    status: 409,
    code: "CONFLICT",
    details: () => new RegExp(`attached services: ${f.attached}`),
  },
  {
    name: "delete a VPC with peerings",
    method: "DELETE",
    path: () => api.p(`/vpcs/${f.otherRegionVpc}`),
    status: 409,
    code: "CONFLICT",
    details: () => new RegExp(`peerings: ${f.peering}`),
  },
  // Peerings
  {
    name: "peering without peer_vpc_id",
    method: "POST",
    path: () => api.p(`/vpcs/${f.vpc}/peerings`),
    options: body({ peer_account_id: "1", peer_region_code: "us-east-1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /peer_vpc_id/,
  },
  {
    name: "peering in an unknown region",
    method: "POST",
    path: () => api.p(`/vpcs/${f.vpc}/peerings`),
    options: body({ peer_account_id: "1", peer_region_code: "nowhere", peer_vpc_id: "v" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /peer_region_code/,
  },
  { name: "unknown peering id", method: "GET", path: () => api.p(`/vpcs/${f.vpc}/peerings/777`), status: 404, code: "NOT_FOUND" },
  { name: "peerings of an unknown VPC", method: "GET", path: () => api.p("/vpcs/31337/peerings"), status: 404, code: "NOT_FOUND" },
  { name: "delete unknown peering", method: "DELETE", path: () => api.p(`/vpcs/${f.vpc}/peerings/777`), status: 404, code: "NOT_FOUND" },
  // Service creation
  {
    name: "service without name",
    method: "POST",
    path: () => api.p("/services"),
    options: body({}),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  {
    name: "unknown service type",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ service_type: "GRAPH" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /service_type/,
  },
  {
    name: "service in an unknown region",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ region_code: "xx-1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /region_code/,
  },
  {
    name: "invalid CPU/memory pair",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ cpu_millis: "500", memory_gbs: "4" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /allowed/,
  },
  {
    name: "cpu_millis without memory_gbs",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ cpu_millis: "1000" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /together/,
  },
  {
    name: "memory_gbs without cpu_millis",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ memory_gbs: "4" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /together/,
  },
  {
    name: "HA replica_count 3",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ replica_count: 3 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /replica_count/,
  },
  {
    name: "HA replica_count -1",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ replica_count: -1 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /replica_count/,
  },
  {
    name: "replica_count of wrong type",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ replica_count: "1" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /replica_count/,
  },
  {
    name: "unknown environment tag",
    method: "POST",
    path: () => api.p("/services"),
    options: svcBody({ environment_tag: "STAGING" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /environment_tag/,
  },
  // Service actions
  { name: "unknown service id", method: "GET", path: () => api.p("/services/zzzzzzzzzz"), status: 404, code: "NOT_FOUND" },
  {
    name: "resize to an invalid pair",
    method: "POST",
    path: () => svcPath("/resize"),
    options: body({ cpu_millis: "3000", memory_gbs: "12" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /allowed/,
  },
  {
    name: "resize with numbers instead of strings",
    method: "POST",
    path: () => svcPath("/resize"),
    options: body({ cpu_millis: 1000, memory_gbs: 4 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /cpu_millis/,
  },
  {
    name: "setHA with neither count",
    method: "POST",
    path: () => svcPath("/setHA"),
    options: body({}),
    status: 400,
    code: "INVALID_REQUEST",
  },
  {
    name: "setHA with sync above replica count",
    method: "POST",
    path: () => svcPath("/setHA"),
    options: body({ replica_count: 1, sync_replica_count: 2 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /sync_replica_count/,
  },
  {
    name: "setHA replica_count 3",
    method: "POST",
    path: () => svcPath("/setHA"),
    options: body({ replica_count: 3 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /replica_count/,
  },
  {
    name: "PITR fork without target_time",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: body({ fork_strategy: "PITR" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /target_time/,
  },
  {
    name: "PITR target_time before the source existed",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: () => ({ body: { fork_strategy: "PITR", target_time: minutesAfterCreated(-60) } }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /target_time/,
  },
  {
    name: "PITR target_time in the future",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: () => ({ body: { fork_strategy: "PITR", target_time: minutesAfterCreated(24 * 60) } }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /target_time/,
  },
  {
    name: "PITR target_time not RFC 3339",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: body({ fork_strategy: "PITR", target_time: "yesterday" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /RFC 3339/,
  },
  {
    name: "unknown fork strategy",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: body({ fork_strategy: "YESTERDAY" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /fork_strategy/,
  },
  {
    name: "fork without strategy",
    method: "POST",
    path: () => svcPath("/forkService"),
    options: body({}),
    status: 400,
    code: "INVALID_REQUEST",
    details: /fork_strategy/,
  },
  {
    name: "short password",
    method: "POST",
    path: () => svcPath("/updatePassword"),
    options: body({ password: "short" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /password/,
  },
  {
    name: "unknown environment",
    method: "POST",
    path: () => svcPath("/setEnvironment"),
    options: body({ environment: "QA" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /environment/,
  },
  {
    name: "attach to an unknown VPC",
    method: "POST",
    path: () => svcPath("/attachToVPC"),
    options: body({ vpc_id: "987654" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /vpc_id/,
  },
  {
    name: "attach to a VPC in another region",
    method: "POST",
    path: () => svcPath("/attachToVPC"),
    options: () => ({ body: { vpc_id: f.otherRegionVpc } }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /region|eu-west-1/,
  },
  {
    name: "attach with a malformed vpc_id",
    method: "POST",
    path: () => svcPath("/attachToVPC"),
    options: body({ vpc_id: "abc" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /vpc_id/,
  },
  {
    name: "attach to another VPC while attached",
    method: "POST",
    path: () => api.p(`/services/${f.attached}/attachToVPC`),
    options: () => ({ body: { vpc_id: f.secondEastVpc } }),
    status: 409,
    code: "CONFLICT",
    details: () => new RegExp(`attached to VPC ${f.vpc}`),
  },
  {
    name: "detach from a VPC it is not attached to",
    method: "POST",
    path: () => svcPath("/detachFromVPC"),
    options: () => ({ body: { vpc_id: f.vpc } }),
    status: 409,
    code: "CONFLICT",
  },
  // Replica sets
  {
    name: "replica set with 0 nodes",
    method: "POST",
    path: () => svcPath("/replicaSets"),
    options: rsBody({ nodes: 0 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /nodes/,
  },
  {
    name: "replica set with 11 nodes",
    method: "POST",
    path: () => svcPath("/replicaSets"),
    options: rsBody({ nodes: 11 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /nodes/,
  },
  {
    name: "replica set with an invalid pair",
    method: "POST",
    path: () => svcPath("/replicaSets"),
    options: rsBody({ cpu_millis: 500, memory_gbs: 4 }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /allowed/,
  },
  {
    name: "replica set with strings in create",
    method: "POST",
    path: () => svcPath("/replicaSets"),
    options: rsBody({ cpu_millis: "500", memory_gbs: "2" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /cpu_millis/,
  },
  {
    name: "replica set with an empty name",
    method: "POST",
    path: () => svcPath("/replicaSets"),
    options: rsBody({ name: "" }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /name/,
  },
  {
    name: "resize an unknown replica set",
    method: "POST",
    path: () => svcPath("/replicaSets/qqqqqqqqqq/resize"),
    options: body({ cpu_millis: 1000, memory_gbs: 4 }),
    status: 404,
    code: "NOT_FOUND",
  },
  {
    name: "resize a replica set to shared",
    method: "POST",
    path: () => rsPath("/resize"),
    options: body({ cpu_millis: "shared", memory_gbs: "shared" }),
    status: 400,
    code: "INVALID_REQUEST",
  },
  {
    name: "replica sets of an unknown service",
    method: "GET",
    path: () => api.p("/services/aaaaaaaaaa/replicaSets"),
    status: 404,
    code: "NOT_FOUND",
  },
  // Authentication
  { name: "no token", method: "GET", path: () => api.p("/vpcs"), options: () => ({ token: null }), status: 401, code: "UNAUTHORIZED" },
  {
    name: "wrong scheme",
    method: "GET",
    path: () => api.p("/vpcs"),
    options: () => ({ token: null, headers: { authorization: `Basic ${emu.pat}` } }),
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    name: "unknown token",
    method: "GET",
    path: () => api.p("/vpcs"),
    options: () => ({ token: "nope" }),
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    name: "no token on a write",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: () => ({ token: null, body: { name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" } }),
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    name: "PAT on the second project",
    method: "POST",
    path: () => api.p("/vpcs", emu.secondProjectId),
    options: vpcBody({}),
    status: 403,
    code: "FORBIDDEN",
  },
  {
    name: "OAuth on a project not theirs",
    method: "GET",
    path: () => api.p("/services", "abcdefghij"),
    options: () => ({ token: emu.oauthToken }),
    status: 403,
    code: "FORBIDDEN",
  },
  // Transport
  {
    name: "invalid JSON",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: () => ({ raw: "{not json", headers: { "content-type": "application/json" } }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /JSON/,
  },
  {
    name: "JSON array instead of an object",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: body([1, 2]),
    status: 400,
    code: "INVALID_REQUEST",
    details: /array/,
  },
  {
    name: "JSON string instead of an object",
    method: "POST",
    path: () => svcPath("/setEnvironment"),
    options: body("PROD"),
    status: 400,
    code: "INVALID_REQUEST",
  },
  {
    name: "JSON null instead of an object",
    method: "POST",
    path: () => api.p("/services"),
    options: body(null),
    status: 400,
    code: "INVALID_REQUEST",
  },
  {
    name: "body with a text/plain content type",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: () => ({
      raw: JSON.stringify({ name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" }),
      headers: { "content-type": "text/plain" },
    }),
    status: 400,
    code: "INVALID_REQUEST",
    details: /Content-Type/,
  },
  {
    name: "body over 1 MiB",
    method: "POST",
    path: () => api.p("/vpcs"),
    options: () => ({ raw: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }), headers: { "content-type": "application/json" } }),
    status: 413,
    code: "INVALID_REQUEST",
  },
  { name: "unknown path under the base URL", method: "GET", path: () => api.p("/databases"), status: 404, code: "NOT_FOUND" },
  {
    name: "unknown path outside the base URL",
    method: "GET",
    path: () => "/nothing-here",
    outsideBase: true,
    status: 404,
    code: "NOT_FOUND",
  },
  {
    name: "PUT on the services list",
    method: "PUT",
    path: () => api.p("/services"),
    options: svcBody({}),
    status: 405,
    code: "INVALID_REQUEST",
  },
  { name: "GET on an action path", method: "GET", path: () => svcPath("/resize"), status: 405, code: "INVALID_REQUEST" },
];

describe("bad requests", () => {
  it("has at least 40 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: answers the error and changes nothing", async (_name, c) => {
    const before = await everything();
    const options = c.options?.() ?? {};
    const res = c.outsideBase
      ? await fetch(`${emu.url}${c.path()}`, { headers: { authorization: `Bearer ${emu.pat}` } }).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          body: JSON.parse(await r.text()),
        }))
      : await api.call(c.method, c.path(), options);
    expect(res.status).toBe(c.status);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(["code", "message"]));
    expect(Object.keys(res.body).every((k) => ["code", "message", "details"].includes(k))).toBe(true);
    expect(res.body.code).toBe(c.code);
    expect(typeof res.body.message).toBe("string");
    if (c.details) expect(res.body.details).toMatch(typeof c.details === "function" ? c.details() : c.details);
    if (c.status === 405) expect(res.headers.get("allow")).toMatch(/POST|GET/);
    expect(await everything()).toEqual(before);
  });
});
