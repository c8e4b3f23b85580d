/**
 * A read never records what it could not read, on every field of every kind: each field of a
 * full answer of each kind (at any depth) is given, in turn, every shape it does not have
 * (`null`, absent, an array, an object, a string, a number, a boolean, a number written with
 * an exponent). Where the client still reads the answer (a field it relies on makes it
 * unreadable instead), the outputs are those recorded (framework/unreadable.ts, each kind's
 * the fields each output declares), and no action of the kind is needed for a program that did not change.
 * The exceptions are the fields whose absence is a value (a pooler that is off, a service
 * not attached to a VPC, not a fork, a peering that has not failed) and those no output reads.
 */
import { keepingRecorded } from "../../provider/framework/unreadable";
import { ABSENT, kinds, mutated, ODD, pathsOf, replicaSetKind, sameShape } from "./liveKinds";

describe("a field the answer does not show readably", () => {
  beforeAll(() => jest.spyOn(console, "error").mockImplementation(() => undefined));
  afterAll(() => jest.restoreAllMocks());

  it.each(kinds.map((k) => [k.name, k] as const))("%s: keeps every output as recorded, and needs no action", (_, kind) => {
    const live = kind.parse(kind.answer);
    expect(live).toBeDefined();
    const recorded = kind.outputs(live);
    expect(kind.needed(live, recorded)).toEqual([]);
    const checked: string[] = [];
    for (const path of pathsOf(kind.answer)) {
      const key = path.join(".");
      if (kind.unread.some((u) => key === u || key.startsWith(`${u}.`))) continue;
      const original = path.reduce<unknown>((n, seg) => (n as Record<string | number, unknown>)[seg], kind.answer);
      for (const odd of ODD) {
        if (sameShape(original, odd)) continue;
        if ((odd === null || odd === ABSENT) && kind.none.includes(key)) continue;
        if (typeof odd === "number" && kind.numbersToo?.includes(key)) continue;
        const oddLive = kind.parse(mutated(kind.answer, path, odd));
        if (oddLive === undefined) continue; // a field the client relies on: the answer is unreadable, nothing is recorded
        const what = `${key} = ${odd === ABSENT ? "absent" : JSON.stringify(odd)}`;
        const read = keepingRecorded(kind.name, oddLive, kind.outputs(oddLive), recorded, kind.schema);
        expect([what, read]).toEqual([what, recorded]);
        expect([what, kind.needed(oddLive, recorded)]).toEqual([what, []]);
        checked.push(what);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
  });

  it("reads a number written with an exponent, or a sign, as the number it is", () => {
    const answer = {
      ...replicaSetKind.answer,
      nodes: "2e0",
      cpu_millis: "1E3",
      memory_gbs: "+4",
      endpoint: { host: "h.example", port: "5.432e3" },
    };
    const live = replicaSetKind.parse(answer)!;
    expect([live.nodes, live.cpu_millis, live.memory_gbs, live.endpoint?.port]).toEqual([2, 1000, 4, 5432]);
  });
});
