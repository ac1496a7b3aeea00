// The session commands in a real terminal (tmux), against the scripted
// model: /rename, /yolo and Ctrl+Y, /stats and `$`, /export, /init, /clear
// (a new conversation; the old one stays a session) and /resume, /rules
// with a removal that persists. Each reads the screen and the files the
// command promises.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

function scripted(turns: unknown[], extraConfig = "") {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${extraConfig}`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

async function open(turns: unknown[], extraConfig = ""): Promise<{ a: TmuxApp; cwd: string; env: Record<string, string> }> {
  const { cwd, env } = scripted(turns, extraConfig);
  app = startTui({ cwd, env, columns: 160, rows: 40 });
  await app.waitFor(/INSERT/, 15_000);
  return { a: app, cwd, env };
}

async function until(ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

function sessionsJson(cwd: string, env: Record<string, string>) {
  return runCli(["sessions", "--output", "json"], { cwd, env }).then((r) => JSON.parse(r.stdout) as Array<{ id: string; task: string; cwd: string }>);
}

describe("session commands", () => {
  it("/rename names the session: yuj sessions lists the name", async () => {
    const { a, cwd, env } = await open([{ text: "hello there" }]);
    await a.submit("first message");
    await a.waitFor(/hello there/);
    await a.submit("/rename Fix the parser");
    await a.waitFor(/The session is now named/);
    const listed = await sessionsJson(cwd, env);
    expect(listed.map((s) => s.task)).toContain("Fix the parser");
  }, 60_000);

  it("/yolo on shows YOLO and skips the ask; Ctrl+Y turns it off again", async () => {
    const { a, cwd } = await open([{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] }, { text: "cleaned" }]);
    mkdirSync(join(cwd, "build"));
    await a.submit("/yolo on");
    await a.waitFor(/ YOLO /);
    await a.submit("clean");
    await a.waitFor(/cleaned/);
    expect(a.screen()).not.toMatch(/waiting for your approval/);
    expect(existsSync(join(cwd, "build"))).toBe(false);
    a.keys("C-y");
    await a.waitFor(/YOLO off/);
    await until(() => !/ YOLO /.test(statusLine(a.screen())));
  }, 60_000);
});

describe("reports and files", () => {
  it("/stats and $ show tokens in, out and cached, the cost at the model's price, wall time and requests", async () => {
    const { a } = await open([{ text: "all good", usage: { input: 1200, output: 340, cached: 200 } }], 'model = "claude-sonnet-4-5"\n');
    await a.submit("go");
    await a.waitFor(/all good/);
    await a.submit("/stats");
    const shown = await a.waitFor(/Session stats/);
    expect(shown).toMatch(/tokens in +1,200 \(200 cached\)/);
    expect(shown).toMatch(/tokens out +340/);
    // (1,000 fresh × $3 + 200 cached × $0.30 + 340 out × $15) per million tokens.
    expect(shown).toMatch(/cost +\$0\.0082 /);
    expect(shown).toMatch(/wall time +\d/);
    expect(shown).toMatch(/requests +1\b/);
    a.keys("Escape");
    await until(() => !a.screen().includes("Session stats"));
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    a.type("$");
    await a.waitFor(/Session stats/);
  }, 60_000);

  it("/export writes the Markdown transcript, and --json the messages and events", async () => {
    const { a, cwd } = await open([{ text: "the **answer** is 42" }]);
    await a.submit("what is it");
    await a.waitFor(/answer/);
    await a.submit("/export notes/t.md");
    await a.waitFor(/exported the transcript/);
    const md = readFileSync(join(cwd, "notes/t.md"), "utf8");
    expect(md).toMatch(/## User\n\nwhat is it/);
    expect(md).toContain("the **answer** is 42");
    await a.submit("/export --json out.json");
    await a.waitFor(/exported the messages and events/);
    const json = JSON.parse(readFileSync(join(cwd, "out.json"), "utf8")) as { messages: Array<{ role: string; text: string }>; events: Array<{ type: string }> };
    expect(json.messages[0]).toEqual({ role: "user", text: "what is it" });
    expect(json.events.map((e) => e.type)).toContain("assistant_message");
    await a.submit("/export a b");
    await a.waitFor(/\/export takes one path/);
  }, 60_000);

  it("/init writes AGENTS.md from the repository and asks before overwriting it", async () => {
    const { a, cwd } = await open([{ text: "ok" }]);
    writeFileSync(join(cwd, "package.json"), JSON.stringify({ name: "x", scripts: { test: "vitest run", build: "tsc" } }));
    writeFileSync(join(cwd, "Makefile"), "lint:\n\techo lint\n");
    rmSync(join(cwd, "AGENTS.md"), { force: true });
    await a.submit("/init");
    await a.waitFor(/wrote .*AGENTS\.md/);
    const text = readFileSync(join(cwd, "AGENTS.md"), "utf8");
    expect(text).toContain("`npm test`");
    expect(text).toContain("`npm run build`");
    expect(text).toContain("`make lint`");
    expect(text).toMatch(/## Languages\n\n.*(Python|JavaScript)/);
    writeFileSync(join(cwd, "AGENTS.md"), "mine\n");
    await a.submit("/init");
    await a.waitFor(/AGENTS\.md exists: press y to overwrite/);
    a.type("n");
    await a.waitFor(/kept as it is/);
    expect(readFileSync(join(cwd, "AGENTS.md"), "utf8")).toBe("mine\n");
    await a.submit("/init");
    await a.waitFor(/press y to overwrite/);
    a.type("y");
    await a.waitFor(/wrote .*AGENTS\.md/);
    expect(readFileSync(join(cwd, "AGENTS.md"), "utf8")).toContain("## Commands");
  }, 60_000);
});

describe("conversations", () => {
  it("/clear starts a new conversation; the old one stays a session and /resume brings it back", async () => {
    // Each conversation's model starts the script from its first turn.
    const { a, cwd, env } = await open([{ text: "an answer" }]);
    await a.submit("the first conversation");
    await a.waitFor(/an answer/);
    const firstId = (await sessionsJson(cwd, env))[0]!.id;
    await a.submit("/clear");
    await until(() => !a.screen().includes("an answer"));
    await a.waitFor(/INSERT/, 15_000);
    expect(a.screen()).not.toContain(firstId);
    await a.submit("a second conversation");
    await a.waitFor(/an answer/);
    const listed = await sessionsJson(cwd, env);
    expect(listed.map((s) => s.task).sort()).toEqual(["a second conversation", "the first conversation"]);
    await a.submit("/resume");
    await a.waitFor(/Resume a session of this project/);
    await a.waitFor(/the first conversation/);
    a.keys("Enter");
    await a.waitFor(/Resumed session/, 15_000);
    expect(a.screen()).toContain("the first conversation");
    expect(a.screen()).not.toContain("a second conversation");
    expect(statusLine(a.screen())).toContain(firstId);
  }, 90_000);
});
