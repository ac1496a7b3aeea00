// What the transcript shows, in a real terminal (tmux): Markdown inside list
// items is rendered, not shown as raw markers.

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

describe("TUI cards", () => {
  it("renders bold and code inside list items of an answer", async () => {
    const cwd = tempDemoRepo();
    const text = "Done:\n\n- **fixed** the `greet()` test\n- ran *all* tests\n\nThat is all.";
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [{ text }] }));
    mkdirSync(join(cwd, ".yuj"), { recursive: true });
    writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" } });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("report");
    await app.waitFor("That is all.");
    // The answer is drawn as Markdown once it is complete.
    const screen = await app.waitFor(/\* fixed the greet\(\) test/);
    expect(screen).not.toContain("**fixed**");
    expect(screen).not.toContain("`greet()`");
  }, 60_000);
});
