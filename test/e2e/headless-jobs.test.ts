// A headless run whose model leaves a background job running, on each tool
// surface, with the built CLI and a scripted model: the run ends when the
// model does, the job is stopped and the final output says so, and no
// process of it survives; with --keep-jobs yuj stays until the job finishes.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { livePidsWith, uniqueSleep } from "../support/procs.js";

type Surface = "_base" | "chord";

/** A project with a scripted model whose first turn starts `command` in the background. */
function setup(surface: Surface, command: string, then: Array<Record<string, unknown>>): { cwd: string; config: string } {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-headless-jobs-"));
  const start =
    surface === "_base"
      ? { name: "bash", arguments: { cmd: command, background: true } }
      : { name: "shell", arguments: { command, description: "a long job", run_in_background: true } };
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [{ text: "Starting it.", tool_calls: [start] }, ...then] }));
  writeFileSync(
    join(cwd, "yuj.toml"),
    [
      "[provider]",
      'name = "scripted"',
      `scenario = "${join(cwd, "scenario.json")}"`,
      "[tools]",
      "background_enabled = true",
      "[sandbox]",
      'mode = "off"',
    ].join("\n"),
  );
  return { cwd, config: join(cwd, "yuj.toml") };
}

describe.each(["_base", "chord"] as const)("a headless run on the %s surface that leaves a background job", (surface) => {
  it("stops the job when the model answers, says so, and leaves no process", async () => {
    const token = uniqueSleep();
    const { cwd, config } = setup(surface, `sleep ${token}`, [{ text: "It runs in the background." }]);
    // The bound on "forever": a run that waits for the job never ends by itself.
    const res = await runCli(["code", "start the job", "--profile", surface, "--config", config], { cwd, env: isolatedEnv(), timeoutMs: 30_000 });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      `[warning] the run ended while background job j1 (${surface === "_base" ? `sleep ${token}` : "a long job"}) was running: stopped it. ` +
        "Pass --keep-jobs to keep yuj running until background jobs finish.",
    );
    expect(livePidsWith(token)).toEqual([]);
  });

  it("stops it when the run ends at its turn limit (JSONL shows the kill and the notice)", async () => {
    const token = uniqueSleep();
    const { cwd, config } = setup(surface, `sleep ${token}`, [{ text: "never reached" }]);
    const res = await runCli(["code", "start the job", "--profile", surface, "--config", config, "--output", "jsonl", "--max-turns", "1"], {
      cwd,
      env: isolatedEnv(),
      timeoutMs: 30_000,
    });
    expect(res.code).toBe(1);
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const finished = events.findIndex((e) => e.type === "run_finished");
    expect(events[finished]).toMatchObject({ reason: "max_turns" });
    expect(events.slice(finished)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "job_killed", jobId: "j1", reason: "run ended", confirmed: true }),
        expect.objectContaining({ type: "notice", level: "warning", text: expect.stringContaining("background job j1") }),
      ]),
    );
    expect(livePidsWith(token)).toEqual([]);
  });

  it("--keep-jobs keeps the run until the job finishes, and the model hears of it", async () => {
    const { cwd, config } = setup(surface, "sleep 1; sh -c 'echo built' > built.txt", [{ text: "Waiting for it." }, { text: "It finished." }]);
    const res = await runCli(["code", "start the job", "--profile", surface, "--config", config, "--keep-jobs"], {
      cwd,
      env: isolatedEnv(),
      timeoutMs: 30_000,
    });
    expect(res.code).toBe(0);
    if (surface === "_base") expect(res.stdout).toMatch(/Background job j1 \(.*\) finished with exit code 0/);
    else expect(res.stdout).toMatch(/\[Background job j1 finished\]\n\nStatus: completed \(exit code 0\)\nElapsed: \d+s\nQuiet: \d+s \(no output yet\)\nPurpose: a long job\nCommand: sleep 1; sh -c 'echo built' > built\.txt/);
    expect(res.stdout).toContain("It finished.");
    expect(readFileSync(join(cwd, "built.txt"), "utf8")).toBe("built\n");
  });
});

describe("--keep-jobs after the model called done", () => {
  it("waits for the job, says so, then exits", async () => {
    const done = { text: "Wrapping up.", tool_calls: [{ name: "done", arguments: { message: "started" } }] };
    const { cwd, config } = setup("_base", "sleep 1; sh -c 'echo built' > built.txt", [done]);
    const res = await runCli(["code", "start the job", "--config", config, "--keep-jobs"], { cwd, env: isolatedEnv(), timeoutMs: 30_000 });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("[info] --keep-jobs: waiting for background job j1 (sleep 1; sh -c 'echo built' > built.txt) to finish; Ctrl+C stops it");
    expect(res.stdout).toContain("[info] background job finished: j1 exit code 0");
    expect(readFileSync(join(cwd, "built.txt"), "utf8")).toBe("built\n");
  });
});
