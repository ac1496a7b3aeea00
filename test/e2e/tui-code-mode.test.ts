// Code mode in a real terminal (tmux): a call a cell makes that needs
// approval asks the operator while the cell waits, and the cell's card lists
// the calls it made under its header.

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

describe("code mode in the TUI", () => {
  it("asks the operator for a cell's inner call, then shows the cell with its calls nested", async () => {
    const cwd = tempDemoRepo();
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "build", "out.js"), "x");
    const source = "print(read('src/greet.js', limit=1))\nprint(bash(cmd='rm -rf build'))\nprint('cell-finished')";
    const turns = [
      { tool_calls: [{ name: "exec_cell", arguments: { source } }] },
      { tool_calls: [{ name: "done", arguments: { message: "cleaned with a cell" } }] },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    mkdirSync(join(cwd, ".yuj"), { recursive: true });
    writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ncode_mode = true\n`);
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args: [], columns: 120, rows: 40 });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("clean up");
    const asking = await app.waitFor(/\[y\/A\] allow once/, 30_000);
    expect(asking).toContain("rm -rf build");
    expect(existsSync(join(cwd, "build", "out.js"))).toBe(true);
    // While it waits, the cell's card already lists the call it made before.
    expect(asking).toMatch(/↳ read src\/greet\.js[^\n]*✓/);
    app.keys("y");
    const screen = await app.waitFor(/cleaned with a cell/, 30_000);
    expect(existsSync(join(cwd, "build"))).toBe(false);
    expect(screen).toMatch(/exec_cell[\s\S]*↳ read src\/greet\.js[^\n]*✓[\s\S]*↳ bash rm -rf build[^\n]*✓/);
  }, 90_000);
});
