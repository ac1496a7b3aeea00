// The status bar in a real terminal (tmux): the activity line says what is
// happening (a command running, yuj waiting for the user, a cancelled turn),
// and the session id it shows is one `yuj status` accepts.

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

function scripted(turns: unknown[]) {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

const statusLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

describe("the TUI's activity line", () => {
  it("says a command is running, then that the turn was cancelled", async () => {
    const { cwd, env } = scripted([{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }, { text: "never" }]);
    app = startTui({ cwd, env });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("wait a while");
    const running = await app.waitFor(/running sleep 30 \d/);
    expect(statusLine(running)).not.toMatch(/streaming/);
    app.keys("Escape");
    await app.waitFor(/ NORMAL /);
    app.keys("Escape");
    await app.waitFor(/CANCELLED/);
  }, 60_000);

  it("says yuj waits for the user's approval", async () => {
    const { cwd, env } = scripted([{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] }, { text: "ok" }]);
    mkdirSync(join(cwd, "build"));
    app = startTui({ cwd, env });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("clean");
    const waiting = await app.waitFor(/waiting for your approval/);
    expect(statusLine(waiting)).toContain("waiting for your approval");
  }, 60_000);

  it("shows a session id that yuj status accepts", async () => {
    const { cwd, env } = scripted([{ text: "hello there" }]);
    app = startTui({ cwd, env });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("hi");
    const screen = await app.waitFor("hello there");
    const id = /(\d{8}-\d{6}-[0-9a-z]+)\s*$/.exec(statusLine(screen))?.[1];
    expect(id, statusLine(screen)).toBeDefined();
    const status = await runCli(["status", id!, "--output", "json"], { cwd, env });
    expect(status.code, status.stderr).toBe(0);
    // The whole id, not a prefix that happens to be unique.
    expect(status.stdout).toContain(`"${id}"`);
  }, 60_000);
});
