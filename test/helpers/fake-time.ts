/**
 * Time the test moves by hand, for tests that assert durations (a source's tookMs, a back-off, a
 * timeout): vitest's fake timers and Date. setImmediate and process.nextTick stay real: the replay
 * dispatcher hands out bodies on setImmediate, and streams move on nextTick, so in-process work
 * goes on while the clock stands still.
 */
import { vi } from "vitest";

export function useFakeTime(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
}

/** The runtime's `elapsed` on the fake clock (core/model/runtime.ts), so tookMs counts fake milliseconds only. */
export const fakeElapsed = (): number => Date.now();

/**
 * Resolves once `holds()` is true, checking after each turn of the event loop. Unlike vi.waitFor
 * and expect.poll it never moves fake time, so it waits for in-process work at a fixed instant;
 * past `turns` turns it fails naming `what` (a count of turns, not a duration).
 */
export async function whenTrue(what: string, holds: () => boolean, turns = 10_000): Promise<void> {
  for (let turn = 0; !holds(); turn++) {
    if (turn === turns) throw new Error(`still waiting for ${what} after ${turns} turns of the event loop`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The results of `calls`, begun at one fake instant and due `due[i]` ms later (ascending): fake
 * time moves to each due time in turn, and that call is awaited before it moves on, so whatever
 * each one measured is exactly its due time.
 */
export async function inTurn<T>(due: readonly number[], calls: readonly Promise<T>[]): Promise<T[]> {
  const results: T[] = [];
  let now = 0;
  for (const [i, at] of due.entries()) {
    await vi.advanceTimersByTimeAsync(at - now);
    now = at;
    results.push(await calls[i]!);
  }
  return results;
}

/** `promise`, which must settle while fake time stands still (it waits on no timer); fails naming `what` otherwise. */
export async function withoutTime<T>(what: string, promise: Promise<T>): Promise<T> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  await whenTrue(`${what} with no time passing`, () => settled);
  return promise;
}
