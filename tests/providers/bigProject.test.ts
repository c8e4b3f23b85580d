/**
 * Creates in a big project read its list once (issue 40, item 11): ten services created in a
 * project that holds 2,000 read the project's list, about 1 MB, once, not once per create or
 * once more for their waits. The look-alikes a create's journal entry records share one read
 * among the creates of the process (framework/journal.ts), and the waits learn from it what the
 * list costs, so they read each service by its own GET (provider/client/readCost.ts). The
 * emulator's request log is the witness.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { startCloud, type Cloud } from "../../harness/cloud";

describe("ten creates in a project of 2,000 services", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
    for (let i = 0; i < 2_000; i += 200) {
      await Promise.all(Array.from({ length: 200 }, (_, j) => cloud.api.perform("createService", { body: { name: `existing-${i + j}` } })));
    }
  }, 120_000);
  afterAll(async () => {
    await cloud.close();
  });

  it("read the project's list once: its bytes once, each service's own GETs for the waits", async () => {
    await cloud.clearRequests();
    const program = () => {
      for (let i = 0; i < 10; i++) new clouddb.Service(`db-${i}`, {});
    };
    expectNoErrors(await cloud.stack.up(program));
    const log = await cloud.requests();
    const lists = log.filter((r) => r.method === "GET" && /\/services$/.test(r.path));
    // What one read of the list costs: the answer as the API sends it now (2,010 services).
    const answer = await fetch(`${cloud.emulator.baseUrl}/projects/${cloud.emulator.projectId}/services`, {
      headers: { authorization: `Bearer ${cloud.emulator.pat}` },
    });
    const listBytes = Buffer.byteLength(await answer.text());
    expect(listBytes).toBeGreaterThan(1_000_000);
    expect(lists).toHaveLength(1);
    expect(log.filter((r) => r.method === "POST" && /\/services$/.test(r.path))).toHaveLength(10);
    expect(cloud.stack.resources()).toHaveLength(10);
    expectNoErrors(await cloud.stack.destroy());
  });
});
