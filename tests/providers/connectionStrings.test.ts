/**
 * Connection strings: a Service's (and, while its pooler is on, its pooler's) and a
 * ReadReplicaSet's at its own endpoint with its service's credentials; secret outputs kept
 * current through password changes and pooler toggles. Against a real PostgreSQL behind the
 * emulator (`--postgres`, when PostgreSQL is installed): a client connects with the stack's
 * output, runs a statement, and connects again after the provider changed the password.
 */
import { Client } from "pg";
import * as clouddb from "pulumi-clouddb";
import { findPostgresBinaries } from "../../emulator/postgres/binaries";
import { expectNoErrors } from "../../harness";
import { startCloud, type Cloud } from "../../harness/cloud";

const uri = (password: string, host: string, port: number) =>
  `postgresql://tsdbadmin:${encodeURIComponent(password)}@${host}:${port}/tsdb?sslmode=require`;

const program = (args: { password: string; pooler: boolean }) => () => {
  const db = new clouddb.Service("db", { name: "connected", password: args.password, connectionPooler: args.pooler });
  const rs = new clouddb.ReadReplicaSet("rs", {
    serviceId: db.serviceId,
    name: "reads",
    nodes: 1,
    cpuMillis: 500,
    memoryGbs: 2,
    password: db.password,
  });
  return {
    connectionString: db.connectionString,
    poolerConnectionString: db.poolerConnectionString,
    replicaConnectionString: rs.connectionString,
  };
};

describe("connection strings", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("are secret outputs that follow the password and the pooler", async () => {
    const first = expectNoErrors(await cloud.stack.up(program({ password: "first-Password-1", pooler: false })));
    const db = cloud.stack.resource("db").outputs;
    const rs = cloud.stack.resource("rs").outputs;
    expect(first.outputs.connectionString).toBe(uri("first-Password-1", String(db.host), Number(db.port)));
    expect(first.outputs.poolerConnectionString).toBeUndefined();
    expect(first.outputs.replicaConnectionString).toBe(uri("first-Password-1", String(rs.host), Number(rs.port)));
    expect(first.secretOutputNames!.sort()).toEqual(["connectionString", "replicaConnectionString"]);
    expect(cloud.stack.resource("db").secretOutputs).toEqual(expect.arrayContaining(["connectionString", "password"]));
    expect(cloud.stack.plaintextState()).not.toContain("first-Password-1");

    const next = expectNoErrors(await cloud.stack.up(program({ password: "second/Password@2", pooler: true })));
    const after = cloud.stack.resource("db").outputs;
    expect(next.outputs.connectionString).toBe(uri("second/Password@2", String(after.host), Number(after.port)));
    expect(String(next.outputs.connectionString)).toContain("second%2FPassword%402");
    expect(next.outputs.poolerConnectionString).toBe(uri("second/Password@2", String(after.poolerHost), Number(after.poolerPort)));
    expect(cloud.stack.resource("db").secretOutputs).toContain("poolerConnectionString");
    expect(next.outputs.replicaConnectionString).toBe(
      uri("second/Password@2", String(cloud.stack.resource("rs").outputs.host), Number(cloud.stack.resource("rs").outputs.port)),
    );
    expect(cloud.stack.plaintextState()).not.toContain("second");
    expectNoErrors(await cloud.stack.destroy());
  });
});

const postgres = findPostgresBinaries();
if (!postgres)
  console.warn(
    "connectionStrings.test.ts: the real-PostgreSQL case is skipped: PostgreSQL is not installed (scripts/ci/install-postgres.sh)",
  );

(postgres ? describe : describe.skip)("a real PostgreSQL behind the emulator", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ postgres: true, clockScale: 0.05 });
  }, 120_000);
  afterAll(async () => {
    await cloud.close();
  });

  /** Connects with a connection string as a program would (TLS; the emulator's certificate is self-signed). */
  async function query(connectionString: string, sql: string): Promise<unknown[]> {
    const url = new URL(connectionString);
    const client = new Client({
      host: url.hostname,
      port: Number(url.port),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      ssl: { rejectUnauthorized: false },
      connectionTimeoutMillis: 10_000,
    });
    client.on("error", () => undefined);
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it("takes the stack's connectionString, and the new password after the provider changed it", async () => {
    const single = (password: string) => () => ({
      connectionString: new clouddb.Service("db", { name: "real", password }).connectionString,
    });
    const first = expectNoErrors(await cloud.stack.up(single("real-Password-1")));
    await query(String(first.outputs.connectionString), "create table notes (id int)");
    expect(await query(String(first.outputs.connectionString), "insert into notes values (1) returning id")).toEqual([{ id: 1 }]);

    const next = expectNoErrors(await cloud.stack.up(single("real-Password-2")));
    expect(await query(String(next.outputs.connectionString), "select count(*)::int as n from notes")).toEqual([{ n: 1 }]);
    await expect(query(String(first.outputs.connectionString), "select 1")).rejects.toMatchObject({ code: "28P01" });
    expectNoErrors(await cloud.stack.destroy());
  }, 120_000);
});
