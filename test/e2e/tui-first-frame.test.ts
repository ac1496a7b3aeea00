// In a real terminal (tmux): the first screen is drawn before Ink is loaded
// (components/first-frame.ts). It must be the screen Ink then draws (the
// handover rewrites no text, doubles and tears no row), and keys typed the
// moment it shows must reach the composer, in order, once it is mounted.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let apps: TmuxApp[] = [];
afterEach(() => {
  for (const a of apps) a.kill();
  apps = [];
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function open(turns: unknown[] = [{ text: "ok" }], columns = 120, rows = 40): TmuxApp {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  const a = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, columns, rows });
  apps.push(a);
  return a;
}

const SYNC_ON = "\x1b[?2026h";
const SYNC_OFF = "\x1b[?2026l";
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The screen after each of the frame writer's synchronized updates, as text:
 * each update moves to a row, erases it and writes it (or erases the screen
 * first, after a resize), so replaying them in order gives every screen shown.
 */
function screensShown(raw: string, rows: number): string[][] {
  const bytes = Buffer.from(raw, "latin1").toString("utf8");
  const screens: string[][] = [];
  let screen: string[] = Array(rows).fill("");
  let at = bytes.indexOf("\x1b[?1049h");
  for (;;) {
    const start = bytes.indexOf(SYNC_ON, at);
    const end = start < 0 ? -1 : bytes.indexOf(SYNC_OFF, start);
    if (end < 0) return screens;
    const update = bytes.slice(start + SYNC_ON.length, end);
    screen = update.includes("\x1b[2J") ? Array(rows).fill("") : [...screen];
    for (const m of update.matchAll(/\x1b\[(\d+);1H\x1b\[2K((?:[^\x1b]|\x1b\[[0-9;]*m)*)/g)) screen[Number(m[1]) - 1] = m[2]!.replace(SGR, "").trimEnd();
    screens.push(screen);
    at = end;
  }
}

const paneRows = (a: TmuxApp, rows: number) => a.screen().split("\n").slice(0, rows).map((l) => l.trimEnd());

describe("the first frame", () => {
  // Wide: the side panel beside the transcript; narrow: its summary row above the status bar.
  it.each([
    [120, 40],
    [90, 30],
  ])("is the screen Ink then draws at %i×%i: every later update leaves the same text, no row doubled or torn", async (columns, rows) => {
    const a = open(undefined, columns, rows);
    await a.waitFor(/INSERT/, 15_000);
    // Ink is mounted once a key is echoed by the composer; erased again, the screen is back at the start.
    a.type("x");
    await a.waitFor(/^› x/m);
    a.keys("BSpace");
    await a.waitFor(/^›\s*$/m);
    await sleep(500);

    const screens = screensShown(a.raw(), rows);
    expect(screens.length).toBeGreaterThanOrEqual(1);
    const first = screens[0]!;
    const text = first.join("\n");
    expect(text).toMatch(/Welcome to yuj \S+: model \S+ \(scripted\) · profile _base · sandbox (auto|on|off):/);
    expect(text).toMatch(/^ INSERT  _base · Enter send/m);
    expect(text).toMatch(/^›\s*$/m);
    expect(text).toMatch(columns >= 120 ? /MODEL[\s\S]*CONTEXT[\s\S]*TOKENS/ : /ctx \S+ · \S+ tok · todos 0\/0 · jobs 0/);
    // Every screen before the key, and the one after it was erased, is the first one.
    // (The key and its erasure are usually painted by the composer's echo, outside
    // the synchronized updates; when they are frames, the screens before them count.)
    const typed = screens.findIndex((s) => s.some((row) => /^› x/.test(row)));
    expect(typed).not.toBe(0);
    for (const s of typed < 0 ? screens : screens.slice(0, typed)) expect(s).toEqual(first);
    expect(screens[screens.length - 1]).toEqual(first);
    // What tmux shows is what the updates drew: nothing else was written, no row twice.
    expect(paneRows(a, rows)).toEqual(first);
    expect(a.screen().match(/Welcome to yuj/g)).toHaveLength(1);
    expect(a.screen().match(/ INSERT /g)).toHaveLength(1);
  }, 60_000);

  it("keeps the keys typed the moment it shows, in order, for the composer", async () => {
    const a = open([{ text: "the first answer" }]);
    await a.waitFor(/INSERT/, 15_000);
    // No wait for the composer: typed at once, as a fast typist would.
    a.type("first words");
    a.keys("Enter");
    a.type("and then more");
    await a.waitFor(/the first answer/);
    const screen = await a.waitFor(/^› and then more\s*$/m);
    expect(screen).toMatch(/USER[\s\S]*first words/);
    expect(screen).not.toMatch(/first wordsand|first words\s*\n\s*and then more/);
  }, 60_000);
});
