/**
 * The pacer's queues (Fifo) and its count of accepted answers (Times): counted by binary
 * search, a window holds what a walk over every time would count, whatever its bounds.
 */
import { Fifo, Times } from "../../provider/client/shaping/fifo";

describe("Fifo", () => {
  it("gives its entries by place from the oldest, after shifts and past a compaction", () => {
    const q = new Fifo<number>();
    for (let i = 0; i < 3_000; i++) q.push(i);
    for (let i = 0; i < 2_000; i++) q.shift();
    expect([q.size, q.at(0), q.at(999), q.at(1_000), q.at(-1)]).toEqual([1_000, 2_000, 2_999, undefined, undefined]);
  });
});

describe("Times", () => {
  it("counts the times after `from` and by `to` as a walk over them all does, repeated times too", () => {
    const times = new Times();
    const kept: number[] = [];
    let t = 1_000;
    for (let i = 0; i < 500; i++) {
      t += [0, 1, 3, 10][i % 4];
      times.push(t);
      kept.push(t);
    }
    for (let i = 0; i < 100; i++) {
      times.shift();
      kept.shift();
    }
    for (const [from, to] of [
      [0, 5_000],
      [1_200, 1_800],
      [1_303, 1_303],
      [t - 1, t],
      [t, t + 1],
      [1_500, 1_400],
    ]) {
      expect([from, to, times.countIn(from, to)]).toEqual([from, to, kept.filter((x) => x > from && x <= to).length]);
    }
  });

  it("keeps them in order when the clock steps back: an earlier time counts as the last", () => {
    const times = new Times();
    for (const t of [100, 200, 150, 300]) times.push(t);
    expect([times.at(2), times.countIn(150, 200), times.countIn(0, 300)]).toEqual([200, 2, 4]);
  });
});
