/**
 * Constructing a resource in a program (sdk/construct.ts, sdk/promiseStacks.ts): the
 * constructor takes none of the stack traces Pulumi's runtime would take for each
 * property's promises, which changes nothing a program sees: the stack trace limit is the
 * program's again after each construction, a transformation (program code run inside the
 * constructor) runs with it, and an error the constructor throws carries the trace of the
 * program's call.
 */
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import { REPO_ROOT, TestStack } from "../../harness";

// The build the provider process runs, as a program imports it.
const clouddb = require(path.join(REPO_ROOT, "dist", "sdk", "index.js")) as typeof import("../../sdk");

describe("constructing a resource", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create({ config: { "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k" } });
  });
  afterAll(async () => {
    await stack.close();
  });

  const args = { name: "net", cidr: "10.0.0.0/16", regionCode: "us-east-1" };

  it("leaves the program's stack trace limit as it was, and runs transformations with it", async () => {
    const seen: number[] = [];
    const limit = Error.stackTraceLimit;
    await stack.preview(() => {
      const transformation: pulumi.ResourceTransformation = () => {
        seen.push(Error.stackTraceLimit);
        return undefined;
      };
      new clouddb.Vpc("a", args, { transformations: [transformation] });
      seen.push(Error.stackTraceLimit);
      new clouddb.Vpc("b", args);
      seen.push(Error.stackTraceLimit);
    });
    expect(seen).toEqual([limit, limit, limit]);
  });

  it("throws an error that carries the trace of the program's call", async () => {
    let thrown: unknown;
    await stack.preview(() => {
      try {
        new clouddb.Vpc("c", args, { parent: {} as pulumi.Resource });
      } catch (e) {
        thrown = e;
      }
    });
    expect((thrown as Error).message).toContain("Resource parent is not a valid Resource");
    expect((thrown as Error).stack).toContain(path.basename(__filename));
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  });
});
