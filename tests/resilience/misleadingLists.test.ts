/**
 * Recovery is not misled by what lies between it and the API (case 3): a gateway whose
 * `Date` runs ahead of the backend that stamps `created`, a list that lags one answer
 * behind the create, a list that shows an item twice. A create whose answer was lost makes
 * exactly one resource: taken over when its name is its own (autonaming), named with its
 * adoptId (once) when the program chose the name.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { journalEntries, startCloud, type Cloud } from "../../harness/cloud";

describe("a list or a clock that misleads", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
    await cloud.controls.reset();
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });
  afterAll(async () => {
    await cloud.close();
  });

  const named = () => void new clouddb.Service("db", { name: "misled" });
  const own = () => ({ name: new clouddb.Service("db", {}).name });

  /** The services the API has whose name is `name`. */
  async function called(name: string): Promise<string[]> {
    return (await cloud.api.perform("listServices")).items.filter((s) => s.name === name).map((s) => s.service_id);
  }

  /** The create's answer lost after the API made it, with `gateway` set up first. */
  async function lost(gateway: () => Promise<void>): Promise<void> {
    await gateway();
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, after: true });
  }

  const worlds: Array<[string, () => Promise<void>]> = [
    ["a gateway's Date 8 s ahead of the backend's clock", () => cloud.controls.clock({ dateOffsetMs: 8_000 })],
    [
      "a list one answer behind the create",
      async () => {
        await cloud.api.perform("listServices"); // the answer the lagging list gives again
        await cloud.controls.fault({ method: "GET", path: "/services$", stale: true });
      },
    ],
    ["a list that shows each item twice", () => cloud.controls.fault({ method: "GET", path: "/services$", repeat: true })],
  ];

  it.each(worlds)("%s, a name the program chose: one service, named once with its adoptId, never a second", async (_, gateway) => {
    await lost(gateway);
    const r = await cloud.stack.up(named);
    const made = await called("misled");
    expect(made).toHaveLength(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`one service fits it: "${made[0]}"`);
    expect(r.errors[0].message).toContain(`adoptId: "${made[0]}"`);
    expect((await cloud.requests()).filter((x) => x.method === "POST" && x.path.endsWith("/services"))).toHaveLength(1);
  });

  it.each(worlds)("%s, a name of its own: the one service it made is taken over", async (_, gateway) => {
    await lost(gateway);
    const r = expectNoErrors(await cloud.stack.up(own));
    expect(await called(r.outputs.name as string)).toEqual([cloud.stack.resource("db").id]);
    expect((await cloud.requests()).filter((x) => x.method === "POST" && x.path.endsWith("/services"))).toHaveLength(1);
  });
});
