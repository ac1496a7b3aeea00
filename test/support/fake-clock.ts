// A clock the test moves: time stands still until advance(), which wakes,
// in order, every sleep that has come due. For the waits whose length is the
// point (a 30 s wait that times out, a server stopped after 10 idle minutes),
// so a test checks the exact moment without spending it. Everything else
// (processes, pipes) still runs in real time; release() hands the clock back
// to real time for the rest of the test (what is pending then still waits
// out what is left of it), so the cleanup's short polls are not stuck.

import { systemClock, type Clock } from "../../core/services.js";

interface Sleeper {
  at: number;
  wake(): void;
}

export interface FakeClock extends Clock {
  /** Moves time on by `ms`, waking the sleeps that come due, in order. */
  advance(ms: number): Promise<void>;
  /** The sleeps waiting now. */
  pending(): number;
  /** True while a sleep is due exactly `ms` from now (the wait a test is about has begun). */
  waiting(ms: number): boolean;
  /** From now on the clock runs at real speed. */
  release(): void;
}

export function fakeClock(start = Date.now()): FakeClock {
  let now = start;
  let releasedAt: number | undefined;
  const sleepers: Sleeper[] = [];
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

  const clock: FakeClock = {
    now: () => (releasedAt === undefined ? now : now + (Date.now() - releasedAt)),
    sleep(ms, signal, opts) {
      if (releasedAt !== undefined) return systemClock.sleep(ms, signal, opts);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
        const sleeper: Sleeper = {
          at: now + ms,
          wake: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          reject(signal?.reason ?? new Error("aborted"));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        sleepers.push(sleeper);
      });
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = sleepers.filter((s) => s.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        sleepers.splice(sleepers.indexOf(due), 1);
        now = due.at;
        due.wake();
        // What the wake-up runs (and the sleeps it starts) happens before time moves on.
        await flush();
      }
      now = until;
      await flush();
    },
    pending: () => sleepers.length,
    waiting: (ms) => sleepers.some((s) => s.at === now + ms),
    release() {
      releasedAt = Date.now();
      for (const s of sleepers.splice(0)) void systemClock.sleep(Math.max(0, s.at - now)).then(s.wake);
    },
  };
  return clock;
}
