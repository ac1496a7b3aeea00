// The whole TUI in a real terminal (tmux), against the scripted model: a
// person's session, key by key, read back from the screen.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

function scripted(turns: unknown[], extraToml = "") {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${extraToml}`);
  const env: Record<string, string> = { ...isolatedEnv(), TERM: "xterm-256color" };
  return { cwd, env };
}

const FIRST_FRAME = /INSERT/;

describe("the TUI", () => {
  it("runs the demo: a message, tool cards, folding, and a clean quit", async () => {
    const env = { ...isolatedEnv(), TERM: "xterm-256color" };
    app = startTui({ cwd: tempDemoRepo(), env });
    await app.waitFor(FIRST_FRAME, 15_000);
    expect(app.alternateOn()).toBe(true);
    await app.waitFor("DEMO MODEL");
    await app.submit("fix the failing test");
    await app.waitFor(/USER #\d+/);
    await app.waitFor(/TOOL CALL #\d+.*read/);
    const done = await app.waitFor(/TOOL CALL #\d+ +done/, 20_000);
    expect(done).toMatch(/ASSISTANT #\d+/);
    expect(done).toContain("all tests passed");

    // Normal mode, move to a foldable card and toggle it.
    app.keys("Escape");
    await app.waitFor("NORMAL");
    // Up one card at a time, each move seen on the screen, to a foldable card.
    for (let i = 0; i < 12 && !/▸|▾/.test(focusedLine(app.screen())); i++) {
      const before = focusedLine(app.screen());
      app.keys("k");
      await until(() => focusedLine(app!.screen()) !== before, 5000);
    }
    const header = focusedLine(app.screen());
    expect(header).toMatch(/TOOL CALL #\d+ +[▸▾]/);
    const wasOpen = header.includes("▾");
    app.keys("o");
    await until(() => focusedLine(app!.screen()).includes(wasOpen ? "▸" : "▾"), 5000);
    app.keys("o");
    await until(() => focusedLine(app!.screen()).includes(wasOpen ? "▾" : "▸"), 5000);

    // Quit: Ctrl+C twice; the terminal is back on the normal screen.
    app.keys("C-c");
    await app.waitFor("press again to quit");
    app.keys("C-c");
    await until(() => app!.paneDead(), 5000);
    expect(app.alternateOn()).toBe(false);
  }, 60_000);

  it("approves an ask with y", async () => {
    const { cwd, env } = scripted([
      { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "cleaned up" } }] },
    ]);
    mkdirSync(join(cwd, "build"));
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("clean the build");
    await app.waitFor(/rm -rf build/);
    // The prompt arms once typing has paused.
    await app.waitFor(/\[y\/A\] allow once/);
    app.keys("y");
    await app.waitFor(/cleaned up/);
    expect(existsSync(join(cwd, "build"))).toBe(false);
  }, 60_000);

  it("rejects an ask with n and the model is told", async () => {
    const { cwd, env } = scripted([
      { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] },
      { text: "Understood, I left it." },
    ]);
    mkdirSync(join(cwd, "build"));
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("clean");
    await app.waitFor(/\[y\/A\] allow once/);
    app.keys("n");
    await app.waitFor("Understood, I left it.");
    expect(existsSync(join(cwd, "build"))).toBe(true);
  }, 60_000);

  it("answers the model's question inline", async () => {
    const { cwd, env } = scripted([
      { tool_calls: [{ name: "ask_user", arguments: { question: "Which punctuation should greet() end with?" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "noted the answer" } }] },
    ]);
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("fix the greeting");
    await app.waitFor("Which punctuation should greet() end with?");
    await app.waitFor("Enter answer");
    await app.submit("an exclamation mark");
    // The card shows the question and its answer as data (the model is told "The operator answered: …").
    await app.waitFor("↳ an exclamation mark");
    await app.waitFor("noted the answer");
  }, 60_000);

  it("cancels a running turn with Esc Esc: the command stops and the session is idle again", async () => {
    const { cwd, env } = scripted([{ tool_calls: [{ name: "bash", arguments: { cmd: "echo $$ > sleeper.pid; exec sleep 30" } }] }, { text: "never" }]);
    // Unsandboxed (the user's own config), so the pid the command writes is the host's.
    mkdirSync(join(env.XDG_CONFIG_HOME!, "yuj"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "yuj", "config.toml"), '[sandbox]\nmode = "off"\n');
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("wait a while");
    await app.waitFor(/TOOL CALL #\d+ .*bash .*sleep 30 ⠿/);
    await until(() => existsSync(join(cwd, "sleeper.pid")) && readFileSync(join(cwd, "sleeper.pid"), "utf8").endsWith("\n"), 10_000);
    const pid = Number(readFileSync(join(cwd, "sleeper.pid"), "utf8"));
    expect(alive(pid)).toBe(true);
    app.keys("Escape");
    await app.waitFor("Esc cancel");
    app.keys("Escape");
    // The call ends as cancelled, its process is gone, and the turn is over:
    // the hint is the idle one and the model's next turn never came.
    const screen = await app.waitFor(/TOOL CALL #\d+ .*bash .*sleep 30 ⊘/);
    await until(() => !alive(pid), 5000);
    const idle = await app.waitFor("q q quit");
    expect(screen + idle).not.toContain("never");
  }, 60_000);

  it("lists a background job in the jobs panel and kills it with x, confirmed with y", async () => {
    const { cwd, env } = scripted(
      [{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 300", background: true } }] }, { text: "Started it." }],
      "[tools]\nbackground_enabled = true\n",
    );
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("start a job");
    await app.waitFor("Started it.");
    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.keys("J");
    await app.waitFor("x kill · Esc close");
    await app.waitFor(/j1.*running/);
    app.keys("x");
    await app.waitFor(/kill j1 .*\? y or x to confirm/);
    expect(app.screen()).toMatch(/j1.*running/);
    app.keys("y");
    await app.waitFor(/j1.*(killed|stopping)/);
  }, 60_000);

  it("searches the transcript and jumps through the card directory", async () => {
    const { cwd, env } = scripted([
      { text: "First answer about apples." },
    ]);
    app = startTui({ cwd, env });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.submit("tell me about apples");
    await app.waitFor("First answer about apples.");
    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.type("/");
    await app.waitFor("Enter find");
    app.type("tell me");
    await app.waitFor("/tell me▏ Enter find");
    app.keys("Enter");
    await until(() => focusedLine(app!.screen()).includes("USER #"), 5000);
    app.keys("C-t");
    await app.waitFor(/CARDS \d+/);
    await app.waitFor("Enter jump");
    app.keys("Enter");
    await until(() => focusedLine(app!.screen()).includes("ASSISTANT #"), 5000);
  }, 60_000);

  it("switches the model with /model and compacts the conversation with /compact", async () => {
    const { cwd, env } = scripted([
      { text: "First." },
      { text: "Second." },
      { text: "Third." },
      { text: "SUMMARY: three greetings." },
      { text: "Fourth." },
    ]);
    app = startTui({ cwd, env, columns: 140 });
    await app.waitFor(FIRST_FRAME, 15_000);
    // Each message once the run before it is over: the composer's hint is the idle one again.
    const idle = () => app!.waitFor("Ctrl+J newline");
    for (const [message, reply] of [["one", "First."], ["two", "Second."], ["three", "Third."]] as const) {
      await app.submit(message);
      await app.waitFor(reply);
      await idle();
    }
    await app.submit("/model scripted-large");
    await app.waitFor("Model: scripted-large (was scripted)");
    await idle();
    await app.submit("/compact");
    await app.waitFor("Compacted on request");
    await idle();
    await app.submit("four");
    await app.waitFor("Fourth.");
  }, 60_000);

  it("survives a resize and hides the side panel when narrow", async () => {
    const { cwd, env } = scripted([{ text: "Hello." }]);
    app = startTui({ cwd, env, columns: 140 });
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.waitFor("MODEL");
    app.resize(90, 30);
    await until(() => !app!.screen().includes("TOKENS"), 5000);
    await app.submit("hi");
    await app.waitFor("Hello.");
  }, 60_000);
});

/** Whether process `pid` still runs (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function focusedLine(screen: string): string {
  return screen.split("\n").find((l) => l.startsWith("▌")) ?? "";
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
