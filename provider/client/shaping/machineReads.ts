/**
 * A list several clients of a key on this machine ask for at once, read once for them all:
 * the processes of a fleet of stacks each list their project's services before their first
 * create (the look-alikes a create's journal entry records, framework/journal.ts), all in the
 * fleet's first second, where 20 stacks' 20 reads took the first 2 s of a limit of 10 a second.
 *
 * A client asking for the list takes an answer read for the machine (sharedLists.ts) only when
 * its request was sent after the client asked: an answer its own request, had it left at once,
 * could have given; otherwise it reads the list itself, for the machine, when no other client
 * does so now, else waits for that one's answer. Only a client that has sent no write yet shares
 * its reads so: an answer another client read may not show what this client's own writes made.
 * Best effort: where the schedule cannot be used, or no answer comes within
 * {@link MACHINE_READ_WAIT_MS}, the client reads the list itself.
 *
 * A caller for which a list older than its call cannot mislead (the look-alikes before a
 * create: framework/lookAlikeList.ts) takes an answer sent up to `maxAgeMs` before it asked:
 * the fleet's processes, which start over several seconds, then read the list once, not each.
 */
import type { SharedAnswer, SharedLists } from "./sharedLists";
import { sleep } from "../timers";

/** The longest a client waits for another's read of a list before it reads the list itself. */
export const MACHINE_READ_WAIT_MS = 5_000;
/** How often a waiting client looks for the answer. */
const LOOK_EVERY_MS = 50;

/** What a read for the machine gave: the answer, and whether another client of the machine read it. */
export interface MachineRead extends SharedAnswer {
  /** True when the answer is another client's read. */
  readonly shared: boolean;
}

/**
 * The list `key` for a client that asks for it now: another client's answer to a request sent
 * since (or at most `maxAgeMs` before), or `read()` (the client's own request, its answer then
 * kept for the machine). Rejects only as `read()` does, or with `stopped`'s reason when it
 * aborts while the client waits.
 */
export async function readForMachine(
  lists: SharedLists,
  key: string,
  read: () => Promise<SharedAnswer>,
  stopped?: AbortSignal,
  maxAgeMs = 0,
): Promise<MachineRead> {
  const askedAt = Date.now();
  // The oldest request whose answer serves this call.
  const from = askedAt - Math.max(0, maxAgeMs);
  const own = async (forMachine: boolean): Promise<MachineRead> => {
    let answer: SharedAnswer | undefined;
    try {
      answer = await read();
      return { ...answer, shared: false };
    } finally {
      if (forMachine) await lists.done(key, answer);
    }
  };
  while (Date.now() - askedAt < MACHINE_READ_WAIT_MS) {
    const found = await lists.newer(key, from - 1);
    if (found !== undefined) return { ...found, shared: true };
    const turn = await lists.take(key, from);
    if (turn === undefined) break;
    if (turn === true) return own(true);
    // Another client reads it now: its answer comes soon.
    await sleep(LOOK_EVERY_MS, stopped);
  }
  return own(false);
}
