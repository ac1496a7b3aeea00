// What the TUI writes to the terminal, read from the raw pty stream of a real
// tmux pane: never a clear of the scrollback, only the rows that changed for
// a keystroke, and the user's terminal history still there after quitting.

import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLEAR_SCROLLBACK = "\x1b[3J";

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Waits until the raw stream has been quiet for `ms`. */
async function settled(a: TmuxApp, ms = 250): Promise<number> {
  let last = a.raw().length;
  let since = Date.now();
  for (;;) {
    await sleep(25);
    const now = a.raw().length;
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= ms) return now;
  }
}

describe("the TUI's terminal output", () => {
  it("echoes a keystroke in under 200 bytes, never clears the scrollback, and leaves it intact", async () => {
    const before = Array.from({ length: 80 }, (_, i) => `scrollback line ${i + 1}`);
    app = startTui({ cwd: tempDemoRepo(), env: { ...isolatedEnv(), TERM: "xterm-256color" }, before, columns: 120, rows: 40 });
    await app.waitFor(/INSERT/, 15_000);
    await settled(app, 500);

    const perKey: number[] = [];
    for (const ch of "hello") {
      const start = await settled(app);
      app.type(ch);
      const typed = perKey.length + 1;
      const composerShows = () => app!.screen().split("\n").some((l) => l.startsWith(`› ${"hello".slice(0, typed)}`));
      await until(composerShows, 5000, `"${ch}" in the composer`);
      perKey.push((await settled(app)) - start);
    }
    expect(perKey.every((n) => n > 0 && n < 200), `bytes per keystroke: ${perKey.join(", ")}`).toBe(true);
    expect(app.raw().includes(CLEAR_SCROLLBACK)).toBe(false);

    app.keys("C-c");
    await app.waitFor("press again to quit");
    app.keys("C-c");
    await until(() => app!.paneDead(), 5000, "the exit");
    expect(app.raw().includes(CLEAR_SCROLLBACK)).toBe(false);
    const history = app.history();
    expect(history).toContain("scrollback line 1\n");
    expect(history).toContain("scrollback line 80");
  }, 60_000);
});
