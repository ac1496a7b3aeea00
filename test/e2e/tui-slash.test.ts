// Slash commands in a real terminal (tmux): the list appears on `/` and
// narrows as the name is typed, Tab completes, an unknown command says so.

import { mkdirSync, writeFileSync } from "node:fs";
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

async function open(): Promise<TmuxApp> {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [{ text: "ok" }] }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } });
  await app.waitFor(/INSERT/, 15_000);
  return app;
}

describe("slash commands", () => {
  it("lists the commands on /, narrows the list, and completes with Tab", async () => {
    const a = await open();
    a.type("/");
    const all = await a.waitFor(/\/compact +summarise older turns/);
    for (const name of ["/help", "/model", "/jobs", "/quit"]) expect(all).toContain(name);
    a.type("mo");
    await a.waitFor(/› \/mo/);
    const narrowed = a.screen();
    expect(narrowed).toMatch(/\/model +the model/);
    expect(narrowed).not.toMatch(/\/compact +summarise/);
    a.keys("Tab");
    // Completed with a space after it, ready for its argument: the list is gone.
    await a.waitFor(/› \/model\s*$/m);
    expect(a.screen()).not.toMatch(/\/model +the model/);
  }, 60_000);

  it("says a command is unknown", async () => {
    const a = await open();
    await a.submit("/bogus");
    await a.waitFor(/unknown command \/bogus/);
  }, 60_000);
});
