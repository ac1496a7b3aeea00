// "Allow always" in a real terminal (tmux), as Chord's add-rule picker: the
// candidate rules from exact to broad, the scope, the rule shown before it
// is stored; a session rule is kept in state.json and honoured after
// --resume, a user rule goes to the user config.

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rm = (file: string) => ({ tool_calls: [{ name: "bash", arguments: { cmd: `rm -f ${file}` } }] });

function project(turns: unknown[]) {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  for (const f of ["build.log", "other.log", "third.log", "keep.txt"]) writeFileSync(join(cwd, f), "x\n");
  const env: Record<string, string> = { ...isolatedEnv(), TERM: "xterm-256color" };
  return { cwd, env };
}

function start(cwd: string, env: Record<string, string>, args: string[] = []): TmuxApp {
  const a = startTui({ cwd, env, args });
  apps.push(a);
  return a;
}

function onlySessionDir(env: Record<string, string>): string {
  const root = join(env.XDG_STATE_HOME!, "yuj/sessions");
  const dirs = readdirSync(root).filter((d) => !d.startsWith("."));
  expect(dirs).toHaveLength(1);
  return join(root, dirs[0]!);
}

async function quit(a: TmuxApp): Promise<void> {
  a.keys("Escape");
  await a.waitFor(/ NORMAL /);
  a.type("q");
  await sleep(50);
  a.type("q");
  const end = Date.now() + 5000;
  while (!a.paneDead() && Date.now() < end) await sleep(50);
  expect(a.paneDead()).toBe(true);
}

describe("allow always", () => {
  it("picks a broader rule for the session, keeps it in state.json and honours it after --resume", async () => {
    const { cwd, env } = project([rm("build.log"), rm("other.log"), { text: "first part done" }, rm("third.log"), { text: "all cleaned" }]);
    const a = start(cwd, env);
    await a.waitFor(/INSERT/, 15_000);
    await a.submit("clean the logs");
    await a.waitFor(/\[a\/M\] allow always/);
    a.type("a");
    const picker = await a.waitFor(/1\. rm -f build\.log/);
    expect(picker.indexOf("rm -f build.log")).toBeLessThan(picker.indexOf("rm -f *.log"));
    expect(picker).toMatch(/3\. rm -f \*/);
    expect(existsSync(join(cwd, "build.log"))).toBe(true);
    a.type("j");
    await a.waitFor(/Will store .*"rm -f \*\.log".* in this session/);
    expect(existsSync(join(cwd, "build.log"))).toBe(true);
    a.keys("Enter");
    await a.waitFor("first part done");
    expect(existsSync(join(cwd, "build.log"))).toBe(false);
    // The second rm matched the stored rule: it never asked.
    expect(existsSync(join(cwd, "other.log"))).toBe(false);
    await quit(a);

    const dir = onlySessionDir(env);
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as { sessionRules: Array<{ pattern?: string }> };
    expect(state.sessionRules.map((r) => r.pattern)).toEqual(["rm -f *.log"]);

    const b = start(cwd, env, ["--resume", JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).sessionId]);
    await b.waitFor(/Resumed session/, 15_000);
    await b.submit("and the last one");
    await b.waitFor("all cleaned");
    expect(existsSync(join(cwd, "third.log"))).toBe(false);
    expect(b.screen()).not.toMatch(/allow once/);
  }, 90_000);

  it("stores the rule in the user config when told to", async () => {
    const { cwd, env } = project([rm("build.log"), { text: "done" }]);
    const a = start(cwd, env);
    await a.waitFor(/INSERT/, 15_000);
    await a.submit("clean");
    await a.waitFor(/\[a\/M\] allow always/);
    a.type("M");
    await a.waitFor(/1\. rm -f build\.log/);
    a.keys("Tab");
    a.keys("Tab");
    await a.waitFor(/Will store .*"rm -f build\.log".* in your user config/);
    a.keys("Enter");
    await a.waitFor(/TOOL CALL #\d+.*rm -f build\.log.*✓/);
    const user = readFileSync(join(env.XDG_CONFIG_HOME!, "yuj/config.toml"), "utf8");
    expect(user).toContain('pattern = "rm -f build.log"');
    expect(user).toContain('tool = "bash"');
  }, 60_000);
});
