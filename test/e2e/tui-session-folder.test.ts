// A TUI session is whole or absent, in a real terminal (tmux): quit before
// the first message and no folder of it is left among the sessions; killed
// with SIGKILL after its first message and it is listed and resumable.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli, waitUntil } from "../support/cli.js";
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
  writeFileSync(join(cwd, ".yuj/config.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  return { cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } };
}

const sessionsRoot = (env: Record<string, string>) => join(env.XDG_STATE_HOME!, "yuj", "sessions");
const entries = (env: Record<string, string>) => (existsSync(sessionsRoot(env)) ? readdirSync(sessionsRoot(env)) : []);

describe("a TUI session's folder", () => {
  it("is gone when the TUI quits before the first message: nothing half-made is left", async () => {
    const { cwd, env } = scripted([{ text: "never asked" }]);
    app = startTui({ cwd, env });
    await app.waitFor(/INSERT/, 15_000);
    // While it runs, the session is staged out of sight.
    expect(entries(env).every((name) => /^\.\d{8}-\d{6}-[0-9a-z]{6}\.new$/.test(name))).toBe(true);
    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.keys("C-c");
    await app.waitFor("press again to quit");
    app.keys("C-c");
    await waitUntil(() => app!.paneDead(), "the TUI to exit");
    expect(entries(env)).toEqual([]);
    const listed = await runCli(["sessions"], { cwd, env });
    expect(listed.stdout).toMatch(/^No sessions yet/);
  }, 60_000);

  it("is listed and resumable once its first message is in, even after a SIGKILL", async () => {
    const { cwd, env } = scripted([
      { text: "Running it.", tool_calls: [{ name: "bash", arguments: { cmd: "touch started.txt; sleep 60" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "finished after the resume" } }] },
    ]);
    app = startTui({ cwd, env });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("run the long command");
    await waitUntil(() => existsSync(join(cwd, "started.txt")), "the command to start");
    const ids = entries(env);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^\d{8}-\d{6}-[0-9a-z]{6}$/);
    const id = ids[0]!;
    const pid = Number(readFileSync(join(sessionsRoot(env), id, "lock.pid"), "utf8"));
    process.kill(pid, "SIGKILL");
    await waitUntil(() => app!.paneDead(), "the TUI to die");

    // The steps saved before and after the folder was published are one log, each step once.
    const log = readFileSync(join(sessionsRoot(env), id, "history.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(log.map((r) => r.at)).toEqual(log.map((_, i) => (i === 0 ? 0 : log.slice(0, i).reduce((n, r) => n + r.items.length, 0))));
    expect(log.reduce((n, r) => n + r.items.length, 0)).toBeGreaterThanOrEqual(2);

    const listed = JSON.parse((await runCli(["sessions", "--output", "json"], { cwd, env })).stdout);
    expect(listed).toMatchObject([{ id, status: "interrupted", task: "run the long command" }]);
    const resumed = await runCli(["resume", id], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("finished after the resume");
    expect(entries(env)).toEqual([id]);
  }, 60_000);
});
