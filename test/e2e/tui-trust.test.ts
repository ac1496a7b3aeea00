// The TUI's start-up question about an untrusted project config, in a real
// terminal (tmux) against the scripted model: n starts without the loosening
// settings (and says so), y trusts the file and starts with them, a trusted
// file is not asked about again until it changes.

import { existsSync, mkdirSync, readFileSync, appendFileSync, writeFileSync } from "node:fs";
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

const QUESTION = "Trust this project's config?";
const FIRST_FRAME = /INSERT/;

/** A project whose config allows `rm *` and whose scripted model removes build/. */
function project() {
  const cwd = tempDemoRepo();
  mkdirSync(join(cwd, "build"));
  writeFileSync(
    join(cwd, "scenario.json"),
    JSON.stringify({
      turns: [
        { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "cleaned up" } }] },
      ],
    }),
  );
  mkdirSync(join(cwd, ".yuj"));
  writeFileSync(
    join(cwd, ".yuj/config.toml"),
    '[provider]\nname = "scripted"\nscenario = "scenario.json"\n\n[[permissions.rules]]\ntool = "bash"\npattern = "rm *"\naction = "allow"\n',
  );
  const env: Record<string, string> = { ...isolatedEnv(), TERM: "xterm-256color" };
  return { cwd, env };
}
const storeFile = (env: Record<string, string>) => join(env.XDG_CONFIG_HOME!, "yuj", "trusted.toml");

async function quit(a: TmuxApp): Promise<void> {
  a.keys("Escape");
  await a.waitFor("NORMAL");
  a.keys("C-c");
  await a.waitFor("press again to quit");
  a.keys("C-c");
  const end = Date.now() + 5000;
  while (!a.paneDead() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(a.paneDead()).toBe(true);
}

describe("the TUI's trust question", () => {
  it("n: starts without the loosening settings, says so, and the call still asks", async () => {
    const { cwd, env } = project();
    app = startTui({ cwd, env });
    const question = await app.waitFor(QUESTION, 15_000);
    expect(question).toContain("not trusted yet");
    expect(question).toContain('permissions.rules[0] = { tool = "bash", pattern = "rm *", action = "allow" }');
    expect(question).toContain("matching calls run without asking");
    expect(question).toMatch(/y trust this file and start with these settings · n start without them/);
    app.keys("n");
    await app.waitFor(FIRST_FRAME, 15_000);
    await app.waitFor(/is not trusted, so these settings in it\s+are ignored: permissions\.rules\[0\]/);
    await app.submit("clean the build");
    await app.waitFor(/y allow/); // the allow rule was left out: the call asks
    expect(existsSync(join(cwd, "build"))).toBe(true);
    expect(existsSync(storeFile(env))).toBe(false);
  }, 60_000);

  it("y: trusts the file, starts with its settings, and does not ask again until the file changes", async () => {
    const { cwd, env } = project();
    app = startTui({ cwd, env });
    await app.waitFor(QUESTION, 15_000);
    app.keys("y");
    await app.waitFor(FIRST_FRAME, 15_000);
    expect(readFileSync(storeFile(env), "utf8")).toMatch(/sha256 = "[0-9a-f]{64}"/);
    await app.submit("clean the build");
    const done = await app.waitFor("cleaned up", 20_000);
    expect(done).not.toMatch(/y allow/);
    expect(existsSync(join(cwd, "build"))).toBe(false);
    await quit(app);

    app = startTui({ cwd, env });
    const screen = await app.waitFor(FIRST_FRAME, 15_000);
    expect(screen).not.toContain(QUESTION);
    await quit(app);

    appendFileSync(join(cwd, ".yuj/config.toml"), "# edited\n");
    app = startTui({ cwd, env });
    const again = await app.waitFor(QUESTION, 15_000);
    expect(again).toContain("changed since you trusted it");
  }, 90_000);

  it("Ctrl+C at the question leaves without starting a session", async () => {
    const { cwd, env } = project();
    app = startTui({ cwd, env });
    await app.waitFor(QUESTION, 15_000);
    app.keys("C-c");
    const end = Date.now() + 5000;
    while (!app.paneDead() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(app.paneDead()).toBe(true);
    expect(app.alternateOn()).toBe(false);
    expect(existsSync(join(env.XDG_STATE_HOME!, "yuj", "sessions"))).toBe(false);
  }, 60_000);
});
