// `yuj code --measure`: the same measurement semantics as `yuj measure`. An
// ask becomes a deny (the command does not run), no question tool is offered
// and a call to it cannot pause the run, the terminal tools are off even when
// enabled, and --tool-desc is accepted.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

describe("--measure", () => {
  it("denies an ask, offers no ask_user or terminal, never pauses for input, and takes --tool-desc minimal", async () => {
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "keep.txt"), "kept\n");
    const turns = [
      {
        text: "Cleaning up, then asking.",
        tool_calls: [
          { name: "bash", arguments: { cmd: "rm keep.txt" } },
          { name: "ask_user", arguments: { question: "May I?" } },
        ],
      },
      { text: "Done.", tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(join(cwd, "cfg.toml"), `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = "scenario.json"\n[tools]\nterminal_enabled = true\n`);
    const env = isolatedEnv();
    const res = await runCli(["code", "tidy up", "--measure", "--tool-desc", "minimal", "--config", "cfg.toml", "--output", "jsonl"], { cwd, env });
    expect(res.code, res.stderr).toBe(0);
    expect(existsSync(join(cwd, "keep.txt"))).toBe(true);
    const rows = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const results = rows.filter((r) => r.type === "tool_result");
    expect(results.find((r) => r.name === "bash").modelText).toContain("measurement runs treat ask as deny");
    expect(results.find((r) => r.name === "ask_user").ok).toBe(false);
    expect(rows.some((r) => r.type === "question_asked" || r.type === "approval_requested")).toBe(false);
    const tools: string[] = rows.find((r) => r.type === "request_sent").toolNames;
    expect(tools).toContain("bash");
    expect(tools).not.toContain("ask_user");
    expect(tools.filter((t) => t.startsWith("terminal"))).toEqual([]);
    // Kept for a resume, with the measurement itself.
    const state = readFileSync(join(env.XDG_STATE_HOME!, "yuj", "sessions", rows[0].sessionId, "state.json"), "utf8");
    expect(state).toMatch(/"toolDesc": ?"minimal"/);
    expect(state).toMatch(/"measure": ?true/);
  }, 60_000);

  it("--tool-desc names what it accepts", async () => {
    const cwd = tempDemoRepo();
    const bad = await runCli(["code", "x", "--measure", "--tool-desc", "verbose"], { cwd, env: isolatedEnv() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--tool-desc must be one of minimal; got "verbose"');
  }, 30_000);
});
