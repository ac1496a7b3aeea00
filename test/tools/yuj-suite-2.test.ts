// More of what the reference system pins in its own tests, on Yuj's default
// surface: the interactive terminal's read wait as a setting, and the tool
// cap keeping `read` (through which the listed skills load) first.

import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema, defaultConfig } from "../../core/config/schema.js";
import { createTerminalManager, type TerminalManager } from "../../core/jobs/terminal.js";
import { activateTools } from "../../core/profiles/activate.js";
import { loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { terminalIoTool } from "../../tools/yuj/terminal_io.js";
import { terminalStartTool } from "../../tools/yuj/terminal_start.js";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

describe("terminal_io's wait when the call names no timeout_s", () => {
  let t: TestToolContext | undefined;
  let terminals: TerminalManager | undefined;
  afterEach(async () => {
    await terminals?.shutdown();
    await t?.cleanup();
  });

  async function open(readTimeout?: number) {
    t = await makeToolContext((c) => {
      if (readTimeout !== undefined) c.tools.terminal_read_timeout = readTimeout;
    });
    terminals = createTerminalManager({ emit: t.ctx.emit, sessionDir: t.ctx.sessionDir });
    t.ctx.terminals = terminals;
    // Silent for 3.5 s, then one line: only a wait past that sees it.
    const started = await terminalStartTool.run({ cmd: `python3 -u -c "import time; time.sleep(3.5); print('late line')"` }, t.ctx);
    expect(started.modelText).toContain("(no new output)");
    return terminalIoTool.run({ terminal_id: "t1" }, t.ctx);
  }

  it("is 5 seconds by default, long enough for output that comes late", async () => {
    const read = await open();
    expect(read.modelText).toContain("late line");
  }, 15_000);

  it("follows [tools].terminal_read_timeout", async () => {
    const read = await open(0.5);
    expect(read.modelText).toContain("status: running\n--- output ---\n(no new output)");
  }, 15_000);

  it("defaults to 5 and refuses a negative or non-numeric value by name", () => {
    expect(defaultConfig().tools.terminal_read_timeout).toBe(5);
    expect(configSchema.parse({ tools: { terminal_read_timeout: 1.5 } }).tools.terminal_read_timeout).toBe(1.5);
    for (const value of [-1, "slow"]) {
      const parsed = configSchema.safeParse({ tools: { terminal_read_timeout: value } });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain("terminal_read_timeout");
    }
  });
});

describe("the tool cap with skills listed", () => {
  const registry = builtinHandlers();
  const base = loadProfile(join(repoRoot, "profiles"), "_base");
  const names = (maxTools: number) =>
    activateTools({ ...base, maxTools }, registry, defaultConfig(), { topLevel: true }).specs.map((s) => s.name);

  it("keeps read under the smallest cap: the skills the prompt lists load through it", () => {
    expect(names(1)).toEqual(["read", "ask_user", "done"]);
    expect(names(2)).toEqual(["bash", "read", "ask_user", "done"]);
  });
});
