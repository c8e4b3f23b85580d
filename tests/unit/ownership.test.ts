/**
 * The user's word on who made a resource whose state does not say (framework/ownership.ts), and
 * what a delete or a replacement of such a resource does with it (framework/adoption.ts): the
 * answers are read from `clouddb:ownership` and `CLOUDDB_OWNERSHIP`, a bad one is named with its
 * key, value and what is allowed, and a stop prints the two commands that answer, which a shell
 * reads as written.
 */
import { execFileSync } from "child_process";
import { readSettings } from "../../provider/framework/settings";
import { configCommand, envCommand, OWNERSHIP_KINDS, parseOwnership, type OwnershipAnswers } from "../../provider/framework/ownership";
import { RESOURCES } from "../../provider/resources/registry";
import { answerCommands } from "../upgrade/answers";

type Adoption = typeof import("../../provider/framework/adoption");

/** The adoption module as a fresh process has it (its module state: what this process saw). */
function freshAdoption(): Adoption {
  let m: Adoption | undefined;
  jest.isolateModules(() => {
    m = jest.requireActual<Adoption>("../../provider/framework/adoption");
  });
  return m!;
}

/** The answers of a stack config value and a variable, as the settings read them. */
function answersOf(config?: string, env?: string): { answers: OwnershipAnswers; problems: string[] } {
  const s = readSettings(
    { get: (k) => (k === "clouddb:ownership" ? config : undefined) },
    env === undefined ? {} : { CLOUDDB_OWNERSHIP: env },
  );
  return { answers: s.ownership, problems: s.problems.filter((p) => p.key === "clouddb:ownership").map((p) => p.message) };
}

describe("the answers", () => {
  it("name every resource type there is, and only those", () => {
    expect([...OWNERSHIP_KINDS].sort()).toEqual(RESOURCES.map((r) => r.definition.schema.kind).sort());
  });

  it("are read from the stack config (the object's JSON text, as the engine hands it over, or the object) and the variable; the config's answer counts where both answer", () => {
    const { answers, problems } = answersOf(
      JSON.stringify({ Service: { abc: "made", both: "adopted" }, Vpc: { "12": "adopted" } }),
      JSON.stringify({ Service: { both: "made", other: "adopted" } }),
    );
    expect(problems).toEqual([]);
    expect(readSettings({ get: () => undefined }, {}).ownership.config.size).toBe(0);
    const adoption = freshAdoption();
    const decide = (kind: string, id: string) => adoption.deleteDecision(kind, id, `${kind} ${id}`, {}, answers);
    expect(decide("Service", "abc")).toEqual({ delete: true });
    expect(decide("Service", "both")).toMatchObject({ delete: false, why: expect.stringContaining("(clouddb:ownership)") });
    expect(decide("Service", "other")).toMatchObject({ delete: false, why: expect.stringContaining("(CLOUDDB_OWNERSHIP)") });
    expect(decide("Vpc", "12")).toMatchObject({ delete: false });
    // An answer is for one type: VPC 12's says nothing of peering 12.
    expect(() => decide("VpcPeering", "12")).toThrow(/VpcPeering 12 is not deleted/);
    expect(parseOwnership({ Service: { abc: "adopted" } })).toEqual({ answers: new Map([["Service abc", "adopted"]]) });
  });

  it.each([
    ["not JSON", "made", /"made" is not JSON: expected an object of resource types \(ReadReplicaSet, Service, Vpc, VpcPeering\)/],
    ["not an object", '["Service"]', /is not an object: expected an object of resource types/],
    [
      "a type that does not exist",
      '{"service":{"abc":"made"}}',
      /"service" is no resource type: expected one of ReadReplicaSet, Service, Vpc, VpcPeering/,
    ],
    ["ids that are no object", '{"Service":"abc"}', /Service is "abc": expected an object of ids, each "made" or "adopted"/],
    ["an answer that is neither", '{"Service":{"abc":"mine"}}', /Service abc is "mine": expected "made" or "adopted"/],
    ["an empty id", '{"Service":{"":"made"}}', /Service has an empty id/],
  ])("name the key, the variable, the value and what is allowed when one is %s", (_what, value, reason) => {
    const fromConfig = answersOf(value).problems;
    expect(fromConfig).toEqual([expect.stringMatching(/^clouddb:ownership \/ CLOUDDB_OWNERSHIP \(from clouddb:ownership\): /)]);
    expect(fromConfig[0]).toMatch(reason);
    const fromEnv = answersOf(undefined, value).problems;
    expect(fromEnv).toEqual([expect.stringMatching(/^clouddb:ownership \/ CLOUDDB_OWNERSHIP \(from CLOUDDB_OWNERSHIP\): /)]);
  });
});

describe("a delete of a resource whose state does not say who made it", () => {
  const unrecorded = { serviceId: "abcde12345", name: "db" };

  it("is kept when the state's inputs adopt it, or this run's program does; recorded state is never overruled by an answer", () => {
    const adoption = freshAdoption();
    const { answers } = answersOf(JSON.stringify({ Service: { abcde12345: "made", recorded0: "made", recorded1: "adopted" } }));
    adoption.rememberAdoptedInState("Service", "abcde12345");
    expect(adoption.deleteDecision("Service", "abcde12345", "Service abcde12345", unrecorded, answers)).toMatchObject({
      delete: false,
      why: expect.stringMatching(/its state's inputs adopt it/),
    });
    expect(adoption.deleteDecision("Service", "recorded0", "Service recorded0", { __adopted: true }, answers)).toMatchObject({
      delete: false,
    });
    expect(adoption.deleteDecision("Service", "recorded1", "Service recorded1", { __adopted: false }, answers)).toEqual({ delete: true });
  });

  it("stops without an answer, printing the environment's commands in a process that did not see the program (destroy), the config's in one that did", () => {
    const frozen = freshAdoption();
    let message = "";
    try {
      frozen.deleteDecision("Service", "abcde12345", "Service abcde12345", unrecorded, answersOf().answers);
    } catch (e) {
      message = (e as Error).message;
      expect(e).toMatchObject({ code: "CLOUDDB_OWNERSHIP_UNKNOWN" });
    }
    expect(message).toMatch(/^Service abcde12345 is not deleted: its state was written by pulumi-clouddb 0\.1\.0/);
    expect(message).not.toMatch(/state delete|pulumi up once/);
    expect(answerCommands(message)).toEqual({
      made: `export CLOUDDB_OWNERSHIP='{"Service":{"abcde12345":"made"}}'`,
      adopted: `export CLOUDDB_OWNERSHIP='{"Service":{"abcde12345":"adopted"}}'`,
    });

    const live = freshAdoption();
    live.noteProgram();
    expect(() => live.deleteDecision("Vpc", "17", "Vpc 17", {}, answersOf().answers)).toThrow(
      "if this stack made it (it is deleted): `pulumi config set --path clouddb:ownership.Vpc.17 made`; " +
        "if this stack adopted it (it stays in the cloud and leaves the stack): `pulumi config set --path clouddb:ownership.Vpc.17 adopted`.",
    );
  });

  it("prints commands that a shell reads as written, whatever the id holds", () => {
    for (const id of ["abcde12345", "17", "it's a.b c", '"$(x)`y`\\']) {
      const env = envCommand("Service", id, "adopted");
      const printed = execFileSync("bash", ["-c", `${env}; printf %s "$CLOUDDB_OWNERSHIP"`], { encoding: "utf8" });
      expect(parseOwnership(printed)).toEqual({ answers: new Map([[`Service ${id}`, "adopted"]]) });
      const config = configCommand("Service", id, "made");
      const argv = execFileSync("bash", ["-c", `set -- ${config.replace(/^pulumi /, "")}; printf '%s\\n' "$@"`], { encoding: "utf8" });
      const [, , , key, answer] = argv.trimEnd().split("\n");
      expect(answer).toBe("made");
      // The path the CLI parses: a plain id as a segment, any other in quoted brackets.
      const last = /^clouddb:ownership\.Service(?:\.([A-Za-z0-9_-]+)|\[("(?:[^"\\]|\\.)*")\])$/.exec(key);
      expect(last).not.toBeNull();
      expect(last![1] ?? JSON.parse(last![2])).toBe(id);
    }
  });
});

describe("a replacement of a resource whose state does not say who made it", () => {
  it("stops before anything is made, in a run of the program, unless an answer or the state's inputs say", () => {
    const adoption = freshAdoption();
    // A refresh diffs too, without the program: it never stops.
    expect(() => adoption.assertReplaceable("Service", "abcde12345", {}, answersOf().answers)).not.toThrow();
    adoption.noteProgram();
    expect(() => adoption.assertReplaceable("Service", "abcde12345", {}, answersOf().answers)).toThrow(
      /^Service abcde12345 is not replaced: .* Nothing was created\. Say which, once, then run the command again: if this stack made it \(it is deleted once its replacement exists\): `pulumi config set --path clouddb:ownership\.Service\.abcde12345 made`/,
    );
    expect(() => adoption.assertReplaceable("Service", "abcde12345", { __adopted: false }, answersOf().answers)).not.toThrow();
    expect(() =>
      adoption.assertReplaceable("Service", "abcde12345", {}, answersOf(undefined, '{"Service":{"abcde12345":"made"}}').answers),
    ).not.toThrow();
    adoption.rememberAdoptedInState("Service", "other00000");
    expect(() => adoption.assertReplaceable("Service", "other00000", {}, answersOf().answers)).not.toThrow();
  });

  it("during a move to the native plugin, asks for the answer in the environment, which the dynamic providers that delete the old one read", () => {
    const adoption = freshAdoption();
    adoption.noteProgram();
    adoption.rememberAdoptedInState("Service", "abcde12345");
    const configOnly = answersOf('{"Service":{"abcde12345":"made"}}').answers;
    let message = "";
    try {
      adoption.assertReplaceable("Service", "abcde12345", {}, configOnly, true);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(
      /not moved to the native plugin yet.*deleted by the dynamic providers \(pulumi-clouddb, in the program's node_modules\)/,
    );
    expect(answerCommands(message).made).toBe(`export CLOUDDB_OWNERSHIP='{"Service":{"abcde12345":"made"}}'`);
    const fromEnv = answersOf(undefined, '{"Service":{"abcde12345":"adopted"}}').answers;
    expect(() => adoption.assertReplaceable("Service", "abcde12345", {}, fromEnv, true)).not.toThrow();
  });
});
