// Job ids are unique within a session across the processes that run it: a
// resumed session's first command is not `j1` again, so its result is its
// own output (not appended to the earlier process's log) and the saved
// state names every job once.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

const events = (stdout: string) => stdout.trimEnd().split("\n").map((l) => JSON.parse(l));

describe("job ids across a resume", () => {
  it("continue the session's numbering: the second process's job shows only its own output", async () => {
    const cwd = tempDemoRepo();
    // The scripted model counts the assistant turns in the history, so the
    // resume picks up at the third turn.
    const scenario = {
      turns: [
        { tool_calls: [{ name: "bash", arguments: { cmd: "echo output-of-the-first-process" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "first run" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "echo output-of-the-second-process" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "second run" } }] },
      ],
    };
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario));
    writeFileSync(join(cwd, "cfg.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
    const env = isolatedEnv();
    const first = await runCli(["code", "say something", "--config", "cfg.toml", "--output", "jsonl"], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const id = events(first.stdout).find((e) => e.type === "session_started").sessionId as string;

    const second = await runCli(["resume", id, "say more", "--config", "cfg.toml", "--output", "jsonl"], { cwd, env });
    expect(second.code, second.stderr).toBe(0);
    const rows = events(second.stdout);
    expect(rows.filter((e) => e.type === "job_started").map((e) => e.jobId)).toEqual(["j2"]);
    const result = rows.find((e) => e.type === "tool_result" && e.name === "bash");
    expect(result.modelText).toBe("output-of-the-second-process");

    const dir = join(env.XDG_STATE_HOME!, "yuj", "sessions", id);
    expect(readdirSync(join(dir, "jobs")).filter((n) => n.endsWith(".log")).sort()).toEqual(["j1.log", "j2.log"]);
    expect(readFileSync(join(dir, "jobs", "j1.log"), "utf8")).toBe("output-of-the-first-process\n");
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
    expect(state.jobs.map((j: { jobId: string; command: string }) => [j.jobId, j.command])).toEqual([
      ["j1", "echo output-of-the-first-process"],
      ["j2", "echo output-of-the-second-process"],
    ]);
  }, 60_000);
});
