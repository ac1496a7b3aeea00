// The composer in a real terminal (tmux), on both tool surfaces: readline
// keys, the history kept across sessions and searched with Ctrl+R, a long
// paste collapsed and sent whole, and the external editor.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

function project(turns: unknown[] = [{ text: "ok" }, { text: "ok again" }, { text: "and again" }]) {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } as Record<string, string> };
}

async function open(p: { cwd: string; env: Record<string, string> }, args: string[] = []): Promise<TmuxApp> {
  const a = startTui({ cwd: p.cwd, env: p.env, args });
  apps.push(a);
  await a.waitFor(/INSERT/, 15_000);
  return a;
}

/** The composer's first row, without the glyph. */
const composer = (a: TmuxApp) => (a.screen().split("\n").find((l) => l.startsWith("› ")) ?? "").slice(2).trimEnd();

/** Until the composer's row reads `text` exactly. */
async function composerIs(a: TmuxApp, text: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (composer(a) !== text) {
    if (Date.now() > end) throw new Error(`composer shows ${JSON.stringify(composer(a))}, not ${JSON.stringify(text)}:\n${a.screen()}`);
    await sleep(50);
  }
}

async function quit(a: TmuxApp): Promise<void> {
  a.keys("C-c");
  await a.waitFor("press again to quit");
  a.keys("C-c");
  const end = Date.now() + 5000;
  while (!a.paneDead() && Date.now() < end) await sleep(50);
  expect(a.paneDead()).toBe(true);
}

describe.each([["_base"], ["chord"]])("composer keys on the %s surface", (profile) => {
  it("edits with Ctrl+A/E/W/K/U and Alt+B/F/Backspace", async () => {
    const a = await open(project(), ["--profile", profile]);
    a.type("alpha beta gamma");
    await composerIs(a, "alpha beta gamma");
    a.keys("C-a");
    a.type(">");
    await composerIs(a, ">alpha beta gamma");
    a.keys("C-e");
    a.type("<");
    await composerIs(a, ">alpha beta gamma<");
    // Alt arrives as ESC before the key.
    a.keys("M-b");
    a.type("X");
    await composerIs(a, ">alpha beta Xgamma<");
    a.keys("C-w");
    await composerIs(a, ">alpha beta gamma<");
    a.keys("M-BSpace");
    await composerIs(a, ">alpha gamma<");
    a.keys("M-b", "M-f");
    a.type("!");
    await composerIs(a, ">alpha! gamma<");
    a.keys("M-f", "C-k");
    await composerIs(a, ">alpha! gamma");
    a.keys("M-b", "C-u");
    await composerIs(a, "gamma");
  }, 60_000);
});

describe("composer history", () => {
  it("keeps sent messages across sessions of the project, Up recalls them, Ctrl+R searches them", async () => {
    const p = project();
    const first = await open(p);
    await first.submit("explain the parser please");
    await first.waitFor(/ok$/m);
    await first.submit("now run the tests");
    await first.waitFor(/ok again/);
    // Looks like a key: sent, but never written down.
    await first.submit("my key is sk-abcdefghijklmnopqrstuvwxyz123456");
    await first.waitFor(/and again/);
    await quit(first);

    const file = join(p.env.XDG_STATE_HOME!, "yuj", "history");
    const saved = readFileSync(file, "utf8");
    expect(saved).toContain("explain the parser please");
    expect(saved).not.toContain("sk-abcdef");

    const second = await open(p);
    second.keys("Up");
    await composerIs(second, "now run the tests");
    second.keys("Up");
    await composerIs(second, "explain the parser please");
    second.keys("Down", "Down");
    await composerIs(second, "");
    second.keys("C-r");
    second.type("pars");
    await second.waitFor(/history search pars → explain the parser please/);
    second.keys("Enter");
    await composerIs(second, "explain the parser please");
    // Esc gives back what was there before the search.
    second.keys("C-u");
    second.type("draft");
    await composerIs(second, "draft");
    second.keys("C-r");
    second.type("tests");
    await second.waitFor(/history search tests → now run the tests/);
    second.keys("Escape");
    await composerIs(second, "draft");
    expect(second.screen()).toMatch(/ INSERT /);
  }, 90_000);

  it("keeps each project's history apart", async () => {
    const p = project();
    const a = await open(p);
    await a.submit("only for the first project");
    await a.waitFor(/ok$/m);
    await quit(a);
    const other = project();
    const b = await open({ cwd: other.cwd, env: p.env });
    b.keys("Up");
    await sleep(300);
    expect(composer(b)).toBe("");
  }, 60_000);
});

describe("composer pastes", () => {
  it("collapses a paste of many lines and sends the whole text", async () => {
    const a = await open(project());
    const lines = Array.from({ length: 15 }, (_, i) => `pasted row ${i + 1}`);
    const tmux = (...args: string[]) => execFileSync("tmux", ["-L", `yuj-tests-${process.pid}`, ...args]);
    a.type("review: ");
    tmux("set-buffer", "-b", "many", lines.join("\n"));
    tmux("paste-buffer", "-p", "-b", "many", "-t", a.name);
    await composerIs(a, "review: [Pasted 15 lines]");
    expect(a.screen()).not.toContain("pasted row 2");
    a.keys("Enter");
    await a.waitFor("pasted row 15");
    expect(a.screen()).toContain("pasted row 1");
    // One long line counts by its length.
    tmux("set-buffer", "-b", "long", `${"word ".repeat(300)}end`);
    tmux("paste-buffer", "-p", "-b", "long", "-t", a.name);
    await composerIs(a, "[Pasted 1503 chars]");
  }, 60_000);
});

describe("external editor", () => {
  it("Ctrl+X Ctrl+E hands the terminal to $EDITOR and takes the edited text back", async () => {
    const p = project();
    const dir = join(p.cwd, ".editor");
    mkdirSync(dir);
    const script = join(dir, "edit.sh");
    // Records what it was given and the terminal's mode, waits to be let go, writes its text.
    writeFileSync(
      script,
      `#!/bin/sh\ncp "$1" ${dir}/seen\nstty -a > ${dir}/stty\ntouch ${dir}/running\nwhile [ ! -e ${dir}/go ]; do sleep 0.05; done\nprintf 'written in the editor\\n' > "$1"\n`,
    );
    chmodSync(script, 0o755);
    const a = await open({ cwd: p.cwd, env: { ...p.env, EDITOR: script } });
    a.type("draft to edit");
    await composerIs(a, "draft to edit");
    a.keys("C-x", "C-e");
    const end = Date.now() + 10_000;
    while (!existsSync(join(dir, "running")) && Date.now() < end) await sleep(50);
    expect(readFileSync(join(dir, "seen"), "utf8")).toBe("draft to edit");
    // The editor has the normal screen and a cooked terminal.
    expect(a.alternateOn()).toBe(false);
    expect(readFileSync(join(dir, "stty"), "utf8")).toMatch(/(^|\s)icanon/);
    writeFileSync(join(dir, "go"), "");
    await composerIs(a, "written in the editor");
    expect(a.alternateOn()).toBe(true);
    // Keys work again, and the message sends.
    a.type("!");
    await composerIs(a, "written in the editor!");
    a.keys("Enter");
    await a.waitFor(/USER[\s\S]*written in the editor!/);
  }, 60_000);
});
