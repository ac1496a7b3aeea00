// `yuj code --loop`: the task runs in loop mode without a terminal. A run the
// model ends without done is continued, done's report is confirmed as it
// comes (nobody is there to confirm it), and the iteration limit holds.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

function project(turns: unknown[], config = "") {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${config}`);
  return { cwd, env: isolatedEnv() };
}

/** The events of the one session's trace. */
function trace(env: Record<string, string>): Array<{ type: string; [k: string]: unknown }> {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const [id] = readdirSync(root).filter((n) => !n.startsWith("."));
  return readFileSync(join(root, id!, "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

describe("yuj code --loop", () => {
  it("continues until done and confirms the report as it comes", async () => {
    const p = project([{ text: "part one" }, { tool_calls: [{ name: "done", arguments: { report: "all of it is done" } }] }]);
    const res = await runCli(["code", "--loop", "--profile", "chord", "finish the work"], p);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("loop iteration 2 of 10");
    expect(res.stdout).toContain("loop finished: report confirmed (iteration 2 of 10)");
    const events = trace(p.env);
    const requests = events.filter((e) => e.type === "provider_request").map((e) => JSON.parse(String(e.body)));
    expect(requests).toHaveLength(2);
    // Chord's done is mounted only in the loop: here from the first request.
    expect(requests[0].tools).toContain("done");
    expect(JSON.stringify(requests[1].history.at(-1))).toContain("[loop iteration 2 of 10]");
    expect(events.filter((e) => e.type === "run_finished").map((e) => e.reason)).toEqual(["answered", "done"]);
  }, 30_000);

  it("stops at [loop].max_iterations", async () => {
    const p = project([{ text: "one" }, { text: "two" }, { text: "three" }], "[loop]\nmax_iterations = 2\n");
    const res = await runCli(["code", "--loop", "finish the work"], p);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Loop stopped after 2 iterations without done");
    expect(trace(p.env).filter((e) => e.type === "run_finished")).toHaveLength(2);
  }, 30_000);

  it("goes only with yuj code", async () => {
    const p = project([{ text: "one" }]);
    const res = await runCli(["status", "--loop"], p);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("--loop goes with yuj code");
  }, 30_000);
});
