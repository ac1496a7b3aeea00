// The TUI in a real terminal (tmux) with real language servers: an edit
// card shows the diagnostics the edit caused, the lsp card's header says
// what was asked (`find references path:line:col`), and the side panel
// lists the servers with their state.

import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { startTui, type TmuxApp } from "../support/tmux.js";
import { processesIn, TS_CONFIG, until } from "../lsp/support.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

function project(files: Record<string, string>, turns: unknown[], toml: string): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-tui-lsp-")));
  for (const [rel, text] of Object.entries({ ...files, "scenario.json": JSON.stringify({ turns }) })) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${toml}`);
  return cwd;
}

describe("the TUI with language servers", () => {
  it("shows an edit's diagnostics in its card, the lsp header, and the servers in the side panel", async () => {
    const cwd = project(
      {
        "tsconfig.json": TS_CONFIG,
        "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\nexport const n: number = add(1, 2);\n",
      },
      [
        { tool_calls: [{ name: "edit", arguments: { path: "src/a.ts", old_str: "export const n: number", new_str: "export const n: string" } }] },
        { tool_calls: [{ name: "lsp", arguments: { kind: "references", path: "src/a.ts", line: 0, character: 16 } }] },
        { text: "The edit broke the type of n." },
      ],
      "[lsp]\nenabled = true\ntool_enabled = true\ntimeout_s = 90\n",
    );
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, columns: 150, rows: 45 });
    await app.waitFor(/INSERT/, 15_000);
    // Before any use: listed, not started.
    const idle = await app.waitFor(/LSP 2/);
    expect(idle).toMatch(/● pyright idle/);
    expect(idle).toMatch(/● typescript idle/);
    await app.submit("change n to a string");
    const screen = await app.waitFor(/broke the type of n/, 120_000);
    expect(screen).toMatch(/Diagnostics \(typescript\) src\/a\.ts: 1 at severity error or above/);
    expect(screen).toMatch(/\[E\] 4:14 \[2322\] Type 'number' is not assignable to type 'string'\./);
    expect(screen).toMatch(/TOOL CALL #\d+\s+[▸▾] lsp find references src\/a\.ts:0:16 ✓/);
    expect(screen).toMatch(/src\/a\.ts:3:25 {2}export const n: string = add\(1, 2\);/);
    expect(screen).toMatch(/● typescript ready/);
    expect(screen).toMatch(/● pyright idle/);
    // Quit: the servers end with yuj.
    app.keys("Escape");
    await app.waitFor("NORMAL");
    app.keys("C-c");
    await app.waitFor("press again to quit");
    app.keys("C-c");
    expect(await until(() => app!.paneDead(), 10_000)).toBe(true);
    expect(await until(() => processesIn(cwd).length === 0, 10_000)).toBe(true);
  }, 180_000);
});
