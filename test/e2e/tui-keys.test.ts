// No lost keys, in a real terminal (tmux): every byte that arrives is applied
// in order, whatever one read carries, and a double press is timed when each
// key arrives, not by the last redraw.

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
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

function scripted(turns: unknown[]) {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

async function open(turns: unknown[] = [{ text: "ok" }]): Promise<TmuxApp> {
  const { cwd, env } = scripted(turns);
  app = startTui({ cwd, env });
  await app.waitFor(/INSERT/, 15_000);
  return app;
}

/** The composer's first row. */
function composer(screen: string): string {
  return screen.split("\n").find((l) => l.startsWith("›")) ?? "";
}

async function toNormal(a: TmuxApp): Promise<void> {
  a.keys("Escape");
  await a.waitFor(/ NORMAL /);
  await sleep(100);
}

async function exited(a: TmuxApp, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!a.paneDead() && Date.now() < end) await sleep(50);
  return a.paneDead();
}

describe("TUI keys", () => {
  it("applies several Backspaces that arrive in one read", async () => {
    const a = await open();
    a.type("abcdef");
    await a.waitFor("abcdef");
    a.type("\x7f\x7f\x7f");
    await a.waitFor(/› abc\s*$/m);
    expect(composer(a.screen())).not.toContain("abcd");
  }, 60_000);

  it("keeps the text typed right after i in Normal mode (one read)", async () => {
    const a = await open();
    await toNormal(a);
    a.type("ihello");
    await a.waitFor(/ INSERT /);
    await a.waitFor(/› hello/);
  }, 60_000);

  it("starts a message with a key Normal mode does not bind", async () => {
    const a = await open();
    await toNormal(a);
    a.type("x");
    await a.waitFor(/ INSERT /);
    await a.waitFor(/› x/);
  }, 60_000);

  it("takes a bracketed paste in Normal mode into the composer", async () => {
    const a = await open();
    await toNormal(a);
    const tmux = (...args: string[]) => execFileSync("tmux", ["-L", `yuj-tests-${process.pid}`, ...args]);
    tmux("set-buffer", "-b", "clip", "pasted words");
    tmux("paste-buffer", "-p", "-b", "clip", "-t", a.name);
    await a.waitFor(/› pasted words/);
    expect(a.screen()).toMatch(/ INSERT /);
  }, 60_000);

  it("keeps a burst typed while the model works", async () => {
    const a = await open([{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 3" } }] }, { text: "done now" }]);
    await a.submit("wait");
    await a.waitFor(/sleep 3/);
    // One read with text and editing keys in it: each applies, in order.
    a.type("the quick brown fox\x7f\x7f\x7fcat jumps");
    await a.waitFor(/› the quick brown cat jumps/);
  }, 60_000);

  it("times double presses when the keys arrive, after the screen has been idle", async () => {
    const a = await open();
    await toNormal(a);
    await sleep(2500);
    a.type("q");
    await sleep(150);
    a.type("q");
    expect(await exited(a)).toBe(true);
  }, 60_000);

  it("quits with Ctrl+C twice after an idle spell, in Insert mode too", async () => {
    const a = await open();
    await sleep(2500);
    a.keys("C-c");
    await a.waitFor("press again to quit");
    await sleep(100);
    a.keys("C-c");
    expect(await exited(a)).toBe(true);
  }, 60_000);
});
