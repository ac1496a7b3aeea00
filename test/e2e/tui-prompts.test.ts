// Prompts in a real terminal (tmux): every prompt can be answered or
// cancelled, a question with several parts takes keys on each part, and an
// approval that appears while the user types takes none of those keys.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

function scripted(turns: unknown[]) {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

function start(cwd: string, env: Record<string, string>, args: string[] = []): TmuxApp {
  const app = startTui({ cwd, env, args });
  apps.push(app);
  return app;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const twoQuestions = {
  tool_calls: [
    {
      name: "question",
      arguments: {
        questions: [
          { header: "Colour", question: "Which colour?", options: [{ label: "red", description: "" }, { label: "blue", description: "" }] },
          { header: "Size", question: "Which size?", options: [{ label: "small", description: "" }, { label: "large", description: "" }] },
        ],
      },
    },
  ],
};

/** The stored session's trace, as events. */
function traceEvents(env: Record<string, string>): Array<Record<string, unknown>> {
  const root = join(env.XDG_STATE_HOME ?? join(env.HOME!, ".local/state"), "yuj/sessions");
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === "trace.jsonl") found.push(join(d, e.name));
    }
  };
  walk(root);
  return found.flatMap((f) => readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>));
}

describe("TUI prompts", () => {
  it("answers each part of a question with several parts", async () => {
    const { cwd, env } = scripted([twoQuestions, { text: "Got both answers." }]);
    const app = start(cwd, env, ["--profile", "chord"]);
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("pick for me");
    await app.waitFor(/› 1\. red/);
    await sleep(500);
    app.keys("Down", "Enter");
    await app.waitFor(/› 1\. small/); // the prompt, not the card, shows the second part
    await sleep(100);
    app.keys("Down");
    await app.waitFor(/› 2\. large/);
    app.keys("Enter");
    await app.waitFor("Got both answers.");
    const result = traceEvents(env).find((e) => e.type === "tool_result");
    expect(String(result?.modelText)).toContain('"answer":"blue"');
    expect(String(result?.modelText)).toContain('"answer":"large"');
  }, 60_000);

  it("cancels a question with Ctrl+C: the prompt goes, the call says cancelled by the user, and --resume does not bring it back", async () => {
    const { cwd, env } = scripted([twoQuestions, { text: "never" }]);
    const app = start(cwd, env, ["--profile", "chord"]);
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("pick for me");
    await app.waitFor(/› 1\. red/);
    await sleep(500);
    app.keys("C-c");
    await app.waitFor(/cancel/i);
    const after = await app.waitFor(/^›/m);
    // The card keeps the questions it asked (as data); the prompt itself is gone.
    expect(after).not.toMatch(/\[Enter\] Select/);
    expect(after).toContain("question cancelled by the user");
    const result = traceEvents(env).find((e) => e.type === "tool_result");
    expect(String(result?.modelText)).toContain("cancelled by the user");
    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.keys("q");
    await sleep(50);
    app.keys("q");
    const end = Date.now() + 5000;
    while (!app.paneDead() && Date.now() < end) await sleep(50);
    expect(app.paneDead()).toBe(true);

    const id = String(traceEvents(env).find((e) => e.type === "session_started")?.sessionId);
    const resumed = start(cwd, env, ["--profile", "chord", "--resume", id]);
    await resumed.waitFor(/Resumed session/, 15_000);
    const screen = resumed.screen();
    expect(screen).not.toMatch(/\[Enter\] Select/);
    await resumed.submit("hello again");
    await resumed.waitFor(/USER #\d+[\s\S]*hello again/);
  }, 90_000);

  it("an approval that appears while the user types takes none of those keys, arms after a pause, then answers", async () => {
    const { cwd, env } = scripted([
      { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "cleaned up" } }] },
    ]);
    mkdirSync(join(cwd, "build"));
    const app = start(cwd, env);
    await app.waitFor(/INSERT/, 15_000);
    app.type("clean");
    app.keys("Enter");
    // Keep typing, one key every 60 ms, as the prompt appears.
    let sawPromptWhileTyping = false;
    let longestGap = 0;
    let last = Date.now();
    for (const ch of "hey do the thing yes yes y") {
      app.type(ch);
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
      await sleep(40);
      if (!sawPromptWhileTyping && app.screen().includes("rm -rf build")) sawPromptWhileTyping = true;
    }
    expect(longestGap, "the test types a key at least every 400 ms").toBeLessThan(400);
    expect(sawPromptWhileTyping, app.screen()).toBe(true);
    expect(existsSync(join(cwd, "build"))).toBe(true);
    const typed = app.screen();
    expect(typed).toMatch(/›.*hey do the thing/);
    expect(typed).toContain("waiting for you to pause typing");
    const armed = await app.waitFor(/\[y\/A\] allow once/);
    expect(existsSync(join(cwd, "build"))).toBe(true);
    expect(armed).toMatch(/›.*hey do the thing yes yes y/);
    app.keys("y");
    await app.waitFor(/cleaned up/);
    expect(existsSync(join(cwd, "build"))).toBe(false);
  }, 60_000);
});
