// Tab cycles the main agent's role in the real TUI (tmux), in Insert and
// Normal mode alike; while a slash command or an @-mention is typed it
// completes that instead. The role is the one the next request works in:
// the planner's write outside plans/ is refused.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
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

/** The status bar: the bottom line with the mode. */
const statusLine = (screen: string) => screen.split("\n").filter((l) => / (INSERT|NORMAL) /.test(l)).at(-1) ?? "";

describe("TUI: Tab cycles the main role", () => {
  it("switches builder → planner → builder, shows the role, and the planner's next request may not write outside plans/", async () => {
    const cwd = tempDemoRepo();
    const turns = [{ tool_calls: [{ name: "write", arguments: { path: "src.txt", content: "no\n" } }] }, { text: "planning only" }];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    mkdirSync(join(cwd, ".yuj"), { recursive: true });
    writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args: ["--profile", "chord"] });
    await app.waitFor(/INSERT/, 15_000);
    expect(statusLine(app.screen())).not.toContain("role");

    app.keys("Tab");
    await app.waitFor("Main role: planner");
    expect(statusLine(app.screen())).toContain("role planner");

    // A slash command being typed takes Tab for its completion.
    app.type("/yo");
    await app.waitFor(/› \/yo\s*$/m);
    app.keys("Tab");
    await app.waitFor(/› \/yolo/m);
    expect(statusLine(app.screen())).toContain("role planner");
    app.keys("C-u");
    await app.waitFor(/› ?\s*$/m);
    // So does an @-mention, for its path.
    app.type("@scen");
    await app.waitFor(/› @scen\s*$/m);
    // The file list may still be loading under load: Tab again until it completes; never does it switch the role.
    for (let tries = 0; ; tries++) {
      app.keys("Tab");
      const done = await app.waitFor(/› @scenario\.json/m, 2000).then(() => true, () => false);
      expect(statusLine(app.screen())).toContain("role planner");
      if (done) break;
      if (tries === 4) throw new Error(`Tab never completed the mention:\n${app.screen()}`);
    }
    app.keys("C-u");
    await app.waitFor(/› ?\s*$/m);

    await app.submit("plan it");
    await app.waitFor("planning only", 15_000);
    expect(app.history()).toContain("the planner role changes only plan files");
    expect(existsSync(join(cwd, "src.txt"))).toBe(false);

    app.keys("Escape");
    await app.waitFor(/ NORMAL /);
    app.keys("Tab");
    await app.waitFor("Main role: builder");
    expect(statusLine(app.screen())).toContain("role builder");
  }, 60_000);
});
