// `yuj --resume` without an id in a real terminal (tmux): the session picker
// over sessions made headless first, then the TUI for the one picked.

import { mkdirSync, writeFileSync } from "node:fs";
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

/** A copy of the demo repo whose project config is the scripted model playing `turns`. */
function scriptedRepo(turns: unknown[]): string {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  return cwd;
}

async function headless(task: string, cwd: string, env: Record<string, string>, status: number): Promise<void> {
  const res = await runCli(["code", task], { cwd, env });
  expect(res.code, res.stderr).toBe(status);
}

const selected = (screen: string) => screen.split("\n").find((l) => l.includes("›")) ?? "";
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition never held");
    await pause(50);
  }
}

const PICKER = "Resume a session";

describe("yuj --resume without an id", () => {
  it("lists the sessions, refuses one waiting on an approval, and opens the one picked", async () => {
    const env = { ...isolatedEnv(), TERM: "xterm-256color" };
    const here = scriptedRepo([{ text: "Noted, all fine." }]);
    await headless("first task about apples", here, env, 0);
    await headless("second task about pears", here, env, 0);
    const elsewhere = scriptedRepo([{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] }]);
    mkdirSync(join(elsewhere, "build"));
    await headless("clean elsewhere", elsewhere, env, 3);

    app = startTui({ cwd: here, env, args: ["--resume"] });
    const list = await app.waitFor(PICKER, 15_000);
    expect(app.alternateOn()).toBe(true);
    const lines = list.split("\n");
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    // This directory's sessions first, newest first; then the other directory's.
    expect(at("second task about pears")).toBeGreaterThan(-1);
    expect(at("second task about pears")).toBeLessThan(at("first task about apples"));
    expect(at("first task about apples")).toBeLessThan(at("Other directories"));
    expect(lines[at("clean elsewhere")]).toContain("approval_required");
    expect(selected(list)).toContain("second task about pears");

    // The session waiting on an approval is refused with the command to run.
    app.keys("Down", "Down");
    await until(() => selected(app!.screen()).includes("clean elsewhere"), 5000);
    app.keys("Enter");
    const refused = await app.waitFor(/is approval_required: [\s\S]*yuj approve \d{8}-\d{6}-[0-9a-z]{6}/);
    expect(refused).toContain(PICKER);

    // Back up to the older session here, and open it.
    app.keys("k");
    await until(() => selected(app!.screen()).includes("first task about apples"), 5000);
    app.keys("Enter");
    const opened = await app.waitFor(/Resumed session \d{8}-\d{6}-[0-9a-z]{6}/, 15_000);
    await app.waitFor(/USER #\d+/);
    const screen = await app.waitFor("Noted, all fine.");
    expect(screen).toContain("first task about apples");
    expect(screen).toMatch(/ASSISTANT #\d+/);
    expect(screen).not.toContain("second task about pears");
    expect(opened).not.toContain(PICKER);
    expect(app.alternateOn()).toBe(true);

    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.keys("C-c");
    await app.waitFor("press again to quit");
    app.keys("C-c");
    await until(() => app!.paneDead(), 5000);
    expect(app.alternateOn()).toBe(false);
  }, 90_000);

  it("says when there are no sessions, and q leaves with the terminal restored", async () => {
    const env = { ...isolatedEnv(), TERM: "xterm-256color" };
    app = startTui({ cwd: tempDemoRepo(), env, args: ["--resume"] });
    const empty = await app.waitFor("No sessions yet", 15_000);
    expect(empty).toContain('yuj code "TASK"');
    expect(app.alternateOn()).toBe(true);
    app.keys("q");
    await until(() => app!.paneDead(), 5000);
    expect(app.alternateOn()).toBe(false);
    expect(app.screen()).not.toContain(PICKER);
  }, 60_000);

  it("leaves with Esc without opening anything", async () => {
    const env = { ...isolatedEnv(), TERM: "xterm-256color" };
    const here = scriptedRepo([{ text: "Noted." }]);
    await headless("only task", here, env, 0);
    app = startTui({ cwd: here, env, args: ["--resume"] });
    await app.waitFor("only task", 15_000);
    await app.waitFor("Esc or q quit");
    app.keys("Escape");
    await until(() => app!.paneDead(), 5000);
    expect(app.alternateOn()).toBe(false);
    expect(app.screen()).not.toContain(PICKER);
    expect(app.screen()).not.toContain("INSERT");
  }, 60_000);
});
