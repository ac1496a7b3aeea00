// In a real terminal (tmux): @-mentions completed from the project's files
// and attached to the message; the welcome of a fresh session (and none on
// --resume); the demo's quit hint in Insert mode; a narrow terminal's
// summary row and the todos overlay.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp, type TuiStart } from "../support/tmux.js";

let apps: TmuxApp[] = [];
afterEach(() => {
  for (const a of apps) a.kill();
  apps = [];
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function project(turns: unknown[] = [{ text: "ok" }, { text: "ok again" }], config = "") {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${config}`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } as Record<string, string> };
}

async function open(opts: TuiStart, ready: RegExp = /INSERT/): Promise<TmuxApp> {
  const a = startTui(opts);
  apps.push(a);
  await a.waitFor(ready, 15_000);
  return a;
}

const composer = (a: TmuxApp) => (a.screen().split("\n").find((l) => l.startsWith("› ")) ?? "").slice(2).trimEnd();

async function exited(a: TmuxApp): Promise<boolean> {
  const end = Date.now() + 5000;
  while (!a.paneDead() && Date.now() < end) await sleep(50);
  return a.paneDead();
}

describe("@-mentions in the TUI", () => {
  it("completes from git's files (ignored ones left out) and the card shows what was attached", async () => {
    const p = project();
    writeFileSync(join(p.cwd, ".gitignore"), "ignored-notes.txt\n");
    writeFileSync(join(p.cwd, "ignored-notes.txt"), "private\n");
    writeFileSync(join(p.cwd, "untracked-helper.js"), "// helps\n");
    execFileSync("git", ["init", "-q"], { cwd: p.cwd });
    execFileSync("git", ["add", "src", "README.md"], { cwd: p.cwd });

    const a = await open(p);
    a.type("look at @grt");
    const listed = await a.waitFor(/@ src\/greet\.js +Tab or Enter completes/);
    expect(listed).not.toContain("ignored-notes");
    a.keys("Tab");
    await a.waitFor(/› look at @src\/greet\.js\s*$/m);
    // An untracked file git does not ignore is offered too; an ignored one never.
    a.type("@untr");
    await a.waitFor(/@ untracked-helper\.js/);
    a.keys("C-w");
    a.type("@ignored-no");
    await sleep(400);
    expect(a.screen()).not.toMatch(/@ ignored-notes/);
    a.keys("C-w");
    a.keys("BSpace");
    a.type(":2-3 and @gone.js");
    await a.waitFor(/› look at @src\/greet\.js:2-3 and @gone\.js/);
    a.keys("Enter");
    await a.waitFor(/attached src\/greet\.js:2-3 \(2 lines\)/);
    await a.waitFor(/not attached: @gone\.js: no such file/);
  }, 60_000);
});

describe("first start", () => {
  it("welcomes a fresh session with the model, profile and sandbox, and hints; not a resumed one", async () => {
    const p = project();
    const a = await open(p);
    const screen = await a.waitFor(/Welcome to yuj/);
    expect(screen).toMatch(/model scripted-model|model \S+ \(scripted\)/);
    expect(screen).toMatch(/profile _base/);
    expect(screen).toMatch(/sandbox (auto|on|off): commands run/);
    expect(screen).toMatch(/\? for the keys · \/ for the commands · @path to attach a file/);
    await a.submit("hello");
    await a.waitFor(/ok$/m);
    a.keys("C-c");
    await a.waitFor("press again to quit");
    a.keys("C-c");
    expect(await exited(a)).toBe(true);

    const root = join(p.env.XDG_STATE_HOME!, "yuj/sessions");
    const [dir] = readdirSync(root).filter((d) => !d.startsWith("."));
    const id = JSON.parse(readFileSync(join(root, dir!, "state.json"), "utf8")).sessionId as string;
    const b = await open({ ...p, args: ["--resume", id] }, /Resumed session/);
    await b.waitFor(/USER[\s\S]*hello/);
    expect(b.screen()).not.toContain("Welcome to yuj");
  }, 60_000);

  it("the demo says how to quit, and that works in Insert mode", async () => {
    const cwd = tempDemoRepo();
    const a = await open({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } }, /DEMO MODEL/);
    expect(a.screen()).toMatch(/ INSERT /);
    expect(a.screen()).toMatch(/quit\s+\(Ctrl\+C\s+twice,\s+in\s+any\s+mode\)/);
    a.keys("C-c");
    await a.waitFor("press again to quit");
    a.keys("C-c");
    expect(await exited(a)).toBe(true);
  }, 60_000);
});

describe("narrow terminal", () => {
  const todos = {
    tool_calls: [
      {
        name: "todo_write",
        arguments: { todos: [{ id: "1", content: "write the parser", status: "completed" }, { id: "2", content: "test the lexer", status: "in_progress" }, { id: "3", content: "ship it", status: "pending" }] },
      },
    ],
  };

  it("keeps model, context %, tokens, todos and jobs in view, and opens the todos with s and /todos", async () => {
    const p = project([todos, { text: "planned" }], "[model]\ncontext_window = 200000\n");
    const a = await open({ ...p, args: ["--profile", "chord"], columns: 90, rows: 30 });
    await a.submit("plan it");
    await a.waitFor(/planned/);
    const row = await a.waitFor(/todos 1\/3 · jobs 0/);
    expect(row).toMatch(/ctx \d+% · \S+ tok · todos 1\/3 · jobs 0/);
    expect(row).not.toContain("TODOS 1/3");
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    a.type("s");
    const overlay = await a.waitFor(/TODOS, JOBS AND AGENTS/);
    expect(overlay).toMatch(/TODOS 1\/3/);
    expect(overlay).toMatch(/✓ write the parser/);
    expect(overlay).toMatch(/no background jobs running/);
    a.keys("Escape");
    await a.waitFor(/^(?![\s\S]*TODOS, JOBS AND AGENTS)/);
    a.type("i");
    await a.waitFor(/ INSERT /);
    await a.submit("/todos");
    await a.waitFor(/TODOS, JOBS AND AGENTS/);
  }, 60_000);
});
