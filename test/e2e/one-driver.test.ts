// The TUI and `yuj code` run a session through the same controller, so the
// same scripted session leaves the same saved state both ways: the same
// conversation, status, last message, the rule "allow always" stored for the
// session, jobs and token counts. The TUI is driven key by key in a real
// terminal (tmux); the headless run by a script on `--input jsonl`, and
// across processes by `yuj approve` and `yuj resume`.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSession } from "../../core/session-state.js";
import { isolatedEnv, runCli, waitUntil } from "../support/cli.js";
import { startJsonlSession } from "../support/jsonl-session.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

const TURNS = [
  { text: "Removing the build output.", tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] },
  { tool_calls: [{ name: "bash", arguments: { cmd: "date > log.txt && rm -rf build" } }] },
  { tool_calls: [{ name: "done", arguments: { message: "cleaned" } }] },
];
const TASK = "clean the build";

function project() {
  const cwd = tempDemoRepo();
  mkdirSync(join(cwd, "build"));
  writeFileSync(join(cwd, "build", "out.js"), "x");
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: TURNS }));
  mkdirSync(join(cwd, ".yuj"));
  writeFileSync(join(cwd, ".yuj", "config.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

function sessionDir(env: Record<string, string>): string | undefined {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const [id] = existsSync(root) ? readdirSync(root).filter((d) => !d.startsWith(".")) : [];
  return id === undefined ? undefined : join(root, id);
}

function storedStatus(env: Record<string, string>): string | undefined {
  const dir = sessionDir(env);
  return dir && existsSync(join(dir, "state.json")) ? JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).status : undefined;
}

/** The saved session with what differs between any two sessions (ids, times, places) put aside. */
function savedSession(env: Record<string, string>, cwd: string) {
  const dir = sessionDir(env)!;
  const place = (text: string) => text.split(dir).join("<session>").split(cwd).join("<cwd>");
  const state = JSON.parse(place(readFileSync(join(dir, "state.json"), "utf8")));
  const meta = JSON.parse(place(readFileSync(join(dir, "session.json"), "utf8")));
  for (const k of ["sessionId", "createdAt", "updatedAt", "lastSeq"]) delete state[k];
  for (const k of ["id", "createdAt", "updatedAt"]) delete meta[k];
  // The conversation as a resume reads it back from history.jsonl.
  const history = JSON.parse(place(JSON.stringify(readSession(dir)!.state.history)));
  return { state, meta, history };
}

async function headless() {
  const { cwd, env } = project();
  const s = startJsonlSession(["code", TASK, "--input", "jsonl", "--output", "jsonl"], { cwd, env });
  await s.waitFor((e) => e.type === "approval_requested", "the ask");
  s.send({ type: "approval_answer", decision: "allow_always" });
  await s.waitFor((e) => e.type === "run_finished", "the end of the run");
  s.end();
  expect((await s.done).code).toBe(0);
  return savedSession(env, cwd);
}

/** The same session paused, answered by `yuj approve --always`, and continued by `yuj resume`. */
async function acrossProcesses() {
  const { cwd, env } = project();
  expect((await runCli(["code", TASK], { cwd, env })).code).toBe(3);
  expect((await runCli(["approve", "--always"], { cwd, env })).code).toBe(0);
  expect((await runCli(["resume"], { cwd, env })).code).toBe(0);
  return savedSession(env, cwd);
}

async function tui() {
  const { cwd, env } = project();
  app = startTui({ cwd, env });
  await app.waitFor(/INSERT/, 15_000);
  await app.submit(TASK);
  await app.waitFor(/y allow/);
  app.keys("a");
  await app.waitFor("Will store");
  app.keys("Enter");
  // The done card shows as soon as the call is made; the run has ended once its end is saved.
  await app.waitFor(/cleaned/);
  await waitUntil(() => storedStatus(env) === "done", "the run's end saved");
  app.keys("Escape");
  await app.waitFor("NORMAL");
  app.keys("C-c");
  await app.waitFor("press again to quit");
  app.keys("C-c");
  const deadline = Date.now() + 10_000;
  while (!app.paneDead() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(app.paneDead()).toBe(true);
  return savedSession(env, cwd);
}

describe("one session driver", () => {
  it("leaves the same saved session from the TUI, from yuj code --input jsonl, and from yuj code + approve + resume", async () => {
    const [fromScript, fromTui, fromCommands] = [await headless(), await tui(), await acrossProcesses()];
    expect(fromScript.state).toMatchObject({
      status: "done",
      lastReason: "done",
      lastMessage: "cleaned",
      task: TASK,
      sessionRules: [{ tool: "bash", pattern: "rm -rf build", action: "allow", source: "session" }],
    });
    expect(fromScript.history.length).toBeGreaterThan(0);
    expect(fromTui.history).toEqual(fromScript.history);
    expect(fromTui.state).toEqual(fromScript.state);
    expect(fromTui.meta).toEqual(fromScript.meta);
    expect(fromCommands.history).toEqual(fromScript.history);
    expect(fromCommands.state).toEqual(fromScript.state);
    expect(fromCommands.meta).toEqual(fromScript.meta);
  }, 90_000);
});
