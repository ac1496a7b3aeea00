// Keystroke echo at the end of a long session, in a real terminal (tmux) with
// the raw pty stream recorded: a key that changes only the composer's row is
// painted at once in a few bytes, outside any full frame (Ink's frames are
// synchronized updates; the echo is not), and the screen it leaves is the
// screen a full repaint draws. Keys that change more (a row that wraps, a
// combining mark, the command list, an @-mention's choices, a paste chip,
// Normal mode, an armed approval) take the full frame, and after a resize the
// echo works at the new width.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
/** Begin-synchronized-update: every full frame opens with it. */
const FRAME = "\x1b[?2026h";
const TURNS = 40;

/** Turns of Markdown and a command printing ~3 KB each, as the benchmark's long session. */
function turn(i: number, tail: unknown[] = []): unknown {
  return {
    text: `## Step ${i}\n\n- the range starts at **${i}**\n- it holds 800 numbers\n\n\`\`\`ts\nfor (let n = ${i}; n < ${i + 800}; n++) console.log(n);\n\`\`\`\n`,
    tool_calls: [{ name: "bash", arguments: { cmd: `seq ${i} ${i + 799}` } }, ...tail],
  };
}

function longSession(last: unknown[]): { cwd: string; env: Record<string, string> } {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [...Array.from({ length: TURNS }, (_, i) => turn(i + 1)), ...last] }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n\n[loop]\nmax_turns = 1000\n`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

/** Waits until the raw stream has been quiet for `ms`; its length then. */
async function settled(a: TmuxApp, ms = 300): Promise<number> {
  let last = a.raw().length;
  let since = Date.now();
  for (;;) {
    await sleep(25);
    const now = a.raw().length;
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= ms) return now;
  }
}

/** The composer's rows (the glyph's row and the rows under it up to a blank one), without the glyph. */
function composer(a: TmuxApp): string {
  const rows = a.screen().split("\n");
  const at = rows.findIndex((l) => l.startsWith("› "));
  if (at < 0) return "";
  const out = [rows[at]!.slice(2)];
  for (let i = at + 1; i < rows.length && rows[i]!.startsWith("  ") && rows[i]!.trim(); i++) out.push(rows[i]!.slice(2));
  return out.map((r) => r.trimEnd()).join("\n").normalize("NFC");
}

/** Sends keys, waits for the screen to settle; the bytes written meanwhile. */
async function press(a: TmuxApp, send: () => void, shows?: (composer: string) => boolean): Promise<string> {
  const start = await settled(a, 150);
  send();
  if (shows) {
    const end = Date.now() + 10_000;
    while (!shows(composer(a))) {
      if (Date.now() > end) throw new Error(`composer shows ${JSON.stringify(composer(a))}:\n${a.screen()}`);
      await sleep(20);
    }
  }
  await settled(a, 150);
  return a.raw().slice(start);
}

/** The bytes of an echo painted at once: a few, and no full frame. */
function expectEcho(bytes: string, what: string): void {
  expect(bytes.includes(FRAME), `${what}: a full frame was written: ${JSON.stringify(bytes)}`).toBe(false);
  expect(Buffer.byteLength(bytes, "latin1"), `${what}: ${JSON.stringify(bytes)}`).toBeLessThan(40);
}

/** The screen as a full repaint at the same size draws it (a resize away and back repaints it all). */
async function repainted(a: TmuxApp): Promise<string> {
  await settled(a);
  a.resize(100, 40);
  await a.waitFor(/INSERT|NORMAL/);
  await settled(a);
  a.resize(120, 40);
  await settled(a, 500);
  return a.screen();
}

async function open(p: { cwd: string; env: Record<string, string> }): Promise<TmuxApp> {
  const a = startTui({ cwd: p.cwd, env: p.env, columns: 120, rows: 40 });
  await a.waitFor(/INSERT/, 15_000);
  await a.submit("run the steps");
  return a;
}

describe("keystroke echo after a long session", () => {
  it("paints a plain edit of the composer's row at once, in a few bytes, and leaves the screen a full repaint draws", async () => {
    app = await open(longSession([{ text: "ECHODONE" }]));
    await app.waitFor("ECHODONE", 60_000);
    await settled(app, 500);

    let typed = "";
    for (const ch of ["a", "b", "中", "c"]) {
      typed += ch;
      expectEcho(await press(app, () => app!.type(ch), (c) => c === typed), `typing ${ch}`);
    }
    // The cursor in the middle: moves, a character typed before a wide one, Backspace.
    expectEcho(await press(app, () => app!.keys("Left")), "Left");
    expectEcho(await press(app, () => app!.keys("Left")), "Left");
    expectEcho(await press(app, () => app!.type("x"), (c) => c === "abx中c"), "typing in the middle");
    expectEcho(await press(app, () => app!.keys("BSpace"), (c) => c === "ab中c"), "Backspace in the middle");
    expectEcho(await press(app, () => app!.keys("End")), "End");
    const before = app.screen();
    expect(await repainted(app)).toBe(before);

    // A combining mark joins the character before it: the full frame paints it, and any edit of its row.
    const mark = await press(app, () => app!.type("e\u0301"), (c) => c === "ab中cé");
    expect(mark).toContain(FRAME);
    expect(await press(app, () => app!.keys("C-u"), (c) => c === "")).toContain(FRAME);

    // Up to the right margin the echo paints; the key that wraps the row takes the full frame.
    const long = "y".repeat(114);
    await press(app, () => app!.type(long), (c) => c === long);
    expectEcho(await press(app, () => app!.type("z"), (c) => c === `${long}z`), "the last key that fits");
    // 118 characters and the cursor's cell no longer fit the 118 columns right of the glyph.
    const wrap = await press(app, () => app!.type("wvut"), (c) => c.includes("\n"));
    expect(wrap).toContain(FRAME);
    expect(composer(app)).toBe(`${long}zwvu\nt`);
    const wrapped = app.screen();
    expect(await repainted(app)).toBe(wrapped);
  }, 120_000);

  it("leaves the command list, @-mentions, paste chips, Normal mode and a resize to the full frame, and echoes again after", async () => {
    app = await open(longSession([{ text: "ECHODONE" }]));
    await app.waitFor("ECHODONE", 60_000);
    await settled(app, 500);

    const slash = await press(app, () => app!.type("/"), () => app!.screen().includes("/clear"));
    expect(slash).toContain(FRAME);
    expect(await press(app, () => app!.type("c"), (c) => c === "/c")).toContain(FRAME);
    await press(app, () => app!.keys("C-u"), () => !app!.screen().includes("/clear"));

    const mention = await press(app, () => app!.type("@READ"), () => app!.screen().includes("Tab or Enter completes"));
    expect(mention).toContain(FRAME);
    await press(app, () => app!.keys("Tab"), (c) => c === "@README.md");
    await press(app, () => app!.keys("C-u"), (c) => c === "");

    const paste = Array.from({ length: 12 }, (_, i) => `pasted line ${i + 1}`).join("\n");
    await press(app, () => app!.type(`\x1b[200~${paste}\x1b[201~`), (c) => c === "[Pasted 12 lines]");
    expect(await press(app, () => app!.type("!"), (c) => c === "[Pasted 12 lines]!")).toContain(FRAME);
    await press(app, () => app!.keys("C-u"), (c) => c === "");

    // Normal mode: keys are not the composer's; back in Insert mode they echo again.
    app.keys("Escape");
    await app.waitFor("NORMAL");
    await settled(app);
    expect(await press(app, () => app!.type("j"))).not.toContain("j");
    expect(composer(app)).toBe("");
    app.type("i");
    await app.waitFor("INSERT");
    expectEcho(await press(app, () => app!.type("q"), (c) => c === "q"), "typing after Normal mode");

    // A narrower terminal: its first frame is whole, then keys echo at its width.
    app.resize(100, 40);
    await settled(app, 500);
    expectEcho(await press(app, () => app!.type("r"), (c) => c === "qr"), "typing after a resize");
    const narrow = app.screen();
    app.resize(90, 40);
    await settled(app);
    app.resize(100, 40);
    await settled(app, 500);
    expect(app.screen()).toBe(narrow);
  }, 120_000);

  it("gives an approval's keys to the prompt once it is armed, none to the composer", async () => {
    const p = longSession([{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] }, { text: "ECHODONE" }]);
    mkdirSync(join(p.cwd, "build"));
    app = await open(p);
    // Typing all through the run, a key every 60 ms, as the prompt appears: every key the composer's.
    let typed = 0;
    for (const end = Date.now() + 60_000; !app.screen().includes("why: destructive") && Date.now() < end; typed++) {
      app.type("k");
      await sleep(60);
    }
    for (let i = 0; i < 5; i++, typed++) {
      app.type("k");
      await sleep(60);
    }
    await app.waitFor(/\[y\/A\] allow once/);
    await settled(app);
    expect(composer(app)).toBe("k".repeat(typed));
    app.type("y");
    await app.waitFor("ECHODONE", 30_000);
    expect(existsSync(join(p.cwd, "build"))).toBe(false);
    expect(composer(app)).toBe("k".repeat(typed));
  }, 120_000);
});
