// `yuj measure` end to end: the built CLI over a run directory of three small
// task repositories (real git), a scripted model served over SSE. Each task
// gets its checkpoint, metrics and savings; a task that stops short is
// resumed in a later session up to its session limit; --dry-run runs nothing.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, startCli, waitUntil } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const usage = { input: 100, output: 10, cached: 0 };
/**
 * Thinks while it reads a long file (cut at the output limit), writes the
 * answer, finishes. The thought shares its turn with the read, so the turn
 * stays in the requests once the thought leaves them (the server counts turns).
 */
const TURNS = [
  {
    text: "Reading.",
    tool_calls: [
      { name: "think", arguments: { thought: "x".repeat(500) } },
      { name: "read", arguments: { path: "long.txt" } },
    ],
    usage,
  },
  { text: "Writing.", tool_calls: [{ name: "write", arguments: { path: "answer.txt", content: "42\n" } }], usage },
  { text: "Finished.", tool_calls: [{ name: "done", arguments: { message: "answered" } }], usage },
];

function taskRepo(root: string, name: string): string {
  const dir = join(root, "repos", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "prompt.txt"), `Write the answer for ${name} to answer.txt.\n`);
  writeFileSync(join(dir, "long.txt"), Array.from({ length: 4000 }, (_, i) => `line ${i} of a long file`).join("\n") + "\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "task");
  return dir;
}

async function setup(extraToml = "") {
  server = await startSseServer({ scenario: parseScenario({ turns: TURNS }) });
  const runDir = mkdtempSync(join(tmpdir(), "yuj-measure-"));
  const repos = ["alpha", "beta", "gamma"].map((n) => taskRepo(runDir, n));
  const cfg = join(runDir, "measure.toml");
  writeFileSync(
    cfg,
    `[provider]\nname = "anthropic"\nmodel = "m"\nbase_url = ${JSON.stringify(server.baseUrlFor("anthropic"))}\n` +
      `[tools]\nthink_enabled = true\nthink_keep_turns = 1\nterminal_enabled = true\n${extraToml}`,
  );
  const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" });
  return { runDir, repos, cfg, env };
}

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const jsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));

describe("yuj measure", () => {
  it("runs every task of the run directory and writes checkpoint, metrics and savings, then a summary", async () => {
    const { runDir, repos, cfg, env } = await setup();
    const res = await runCli(["measure", runDir, "--config", cfg, "--tool-desc", "minimal"], { cwd: runDir, env, timeoutMs: 120_000 });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    for (const [i, name] of ["alpha", "beta", "gamma"].entries()) {
      expect(readFileSync(join(repos[i]!, "answer.txt"), "utf8")).toBe("42\n");
      const results = join(runDir, "results", name);
      expect(json(join(results, "checkpoint.json")).status).toBe("completed");
      const m = json(join(results, "metrics.json"));
      expect(m.completed).toBe(true);
      expect(m.tokens.requests).toBe(3);
      expect(m.tokens.total).toEqual({ input: 300, output: 30, cached: 0 });
      expect(m.tokens.per_request).toHaveLength(3);
      expect(m.wall_ms).toBeGreaterThan(0);
      expect(m.guardrails.tool_calls).toBe(4);
      expect(m.provenance.task_commit).toBe(execFileSync("git", ["rev-parse", "HEAD"], { cwd: repos[i]!, encoding: "utf8" }).trim());
      expect(m.provenance.config_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.provenance.config.tools.think_keep_turns).toBe(1);
      expect(m.provenance.yuj_version).toMatch(/\d/);
      const savings = jsonl(join(results, "savings.jsonl"));
      const truncation = savings.find((r) => r.mechanism === "truncation");
      expect(truncation.measure_type).toBe("exact");
      expect(truncation.input_chars).toBeGreaterThan(truncation.output_chars);
      const think = savings.find((r) => r.mechanism === "think_removal");
      // The 500-character thought left the last request (think_keep_turns = 1).
      expect(think.input_chars - think.output_chars).toBeGreaterThanOrEqual(500);
      expect(think.ctx.requests).toBe(3);
    }
    // A measurement request: no question tool, no terminal (enabled in the config), minimal descriptions.
    const posts = server!.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(9);
    const tools = (posts[0]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).toContain("read");
    expect(tools).not.toContain("ask_user");
    expect(tools).not.toContain("terminal_start");
    expect(res.stdout).toMatch(/task\s+status\s+sessions\s+requests\s+input\s+output/);
    expect(res.stdout).toMatch(/alpha\s+completed\s+1\s+3\s+300\s+30/);
    expect(res.stdout).toContain("3 of 3 tasks completed");

    // Completed tasks are skipped by the next run, which asks the model nothing.
    const again = await runCli(["measure", runDir, "--config", cfg], { cwd: runDir, env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("alpha: completed before; skipped");
    expect(server!.requests.filter((r) => r.method === "POST")).toHaveLength(9);
  }, 180_000);

  it("a task that stops short resumes in its next session, up to max_sessions; --dry-run says so and runs nothing", async () => {
    const { runDir, cfg, env } = await setup("[loop]\nmax_sessions = 2\n");
    const task = join(runDir, "repos", "beta");
    // One turn a session: three turns need three sessions; [loop].max_sessions allows two.
    const first = await runCli(["measure", runDir, "--task", task, "--config", cfg, "--max-turns", "1"], { cwd: runDir, env, timeoutMs: 120_000 });
    expect(first.code, first.stderr + first.stdout).toBe(1);
    expect(first.stdout).toContain("not completed after 2 sessions");
    const results = join(runDir, "results", "beta");
    const cp = json(join(results, "checkpoint.json"));
    expect(cp.status).toBe("not_completed");
    expect(cp.sessions.map((s: { reason: string }) => s.reason)).toEqual(["max_turns", "max_turns"]);
    expect(new Set(cp.sessions.map((s: { sessionId: string }) => s.sessionId)).size).toBe(1);
    expect(json(join(results, "metrics.json")).guardrails.max_turns_stops).toBe(2);

    const posts = () => server!.requests.filter((r) => r.method === "POST").length;
    const before = posts();
    const dry = await runCli(["measure", runDir, "--config", cfg, "--max-sessions", "4", "--dry-run"], { cwd: runDir, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`beta: would resume session ${cp.sessions[0].sessionId}, up to 2 more sessions`);
    expect(dry.stdout).toContain(`alpha: would start a new session in ${join(runDir, "repos", "alpha")}`);
    expect(posts()).toBe(before);
    expect(readdirSync(join(runDir, "results"))).toEqual(["beta"]);

    // Two more sessions allowed: the same session goes on from where it stopped and finishes.
    const second = await runCli(["measure", runDir, "--task", task, "--config", cfg, "--max-sessions", "4"], { cwd: runDir, env, timeoutMs: 120_000 });
    expect(second.code, second.stderr + second.stdout).toBe(0);
    const done = json(join(results, "checkpoint.json"));
    expect(done.status).toBe("completed");
    expect(done.sessions).toHaveLength(3);
    expect(readFileSync(join(task, "answer.txt"), "utf8")).toBe("42\n");
    const m = json(join(results, "metrics.json"));
    expect(m.tokens.requests).toBe(3);
    expect(m.sessions).toHaveLength(3);
    expect(existsSync(join(results, "session-3.jsonl"))).toBe(true);
  }, 180_000);

  it("a sub-agent's requests count in the task's tokens, apart as children", async () => {
    const runDir = mkdtempSync(join(tmpdir(), "yuj-measure-"));
    const dir = taskRepo(runDir, "delta");
    const turns = [
      { tool_calls: [{ name: "task", arguments: { agent: "explorer", prompt: "What does long.txt start with?" } }], usage: { input: 10, output: 1 } },
      { tool_calls: [{ name: "read", arguments: { path: "long.txt", limit: 1 } }], usage: { input: 100, output: 7 } },
      { text: "It starts with line 0.", usage: { input: 200, output: 9 } },
      { tool_calls: [{ name: "done", arguments: { message: "line 0" } }], usage: { input: 20, output: 2 } },
    ];
    writeFileSync(join(runDir, "scenario.json"), JSON.stringify({ turns }));
    const cfg = join(runDir, "measure.toml");
    writeFileSync(cfg, `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(runDir, "scenario.json"))}\n[tools]\ntask_enabled = true\n`);
    const res = await runCli(["measure", runDir, "--task", dir, "--config", cfg], { cwd: runDir, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const m = json(join(runDir, "results", "delta", "metrics.json"));
    expect(m.tokens.main).toEqual({ input: 30, output: 3, cached: 0 });
    expect(m.tokens.children).toEqual({ input: 300, output: 16, cached: 0 });
    expect(m.tokens.total).toEqual({ input: 330, output: 19, cached: 0 });
    expect(m.tokens.per_request.map((r: { agent: string }) => r.agent)).toEqual(["main", "main", "task-1", "task-1"]);
  }, 60_000);

  it("Ctrl+C stops the session cleanly, the checkpoint keeps it, and the next run continues it", async () => {
    const { runDir, cfg, env } = await setup();
    const task = join(runDir, "repos", "alpha");
    server!.faults.push({ hang: true });
    const started = startCli(["measure", runDir, "--task", task, "--config", cfg], { cwd: runDir, env });
    await waitUntil(() => server!.stalled() >= 1, "the first model request");
    started.child.kill("SIGINT");
    const stopped = await started.done;
    expect(stopped.code, stopped.stderr + stopped.stdout).toBe(130);
    const results = join(runDir, "results", "alpha");
    const cp = json(join(results, "checkpoint.json"));
    expect(cp.status).toBe("not_completed");
    expect(cp.sessions.map((s: { reason: string }) => s.reason)).toEqual(["cancelled"]);

    const again = await runCli(["measure", runDir, "--task", task, "--config", cfg], { cwd: runDir, env, timeoutMs: 120_000 });
    expect(again.code, again.stderr + again.stdout).toBe(0);
    const done = json(join(results, "checkpoint.json"));
    expect(done.status).toBe("completed");
    expect(done.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([cp.sessions[0].sessionId, cp.sessions[0].sessionId]);
    expect(readFileSync(join(task, "answer.txt"), "utf8")).toBe("42\n");
  }, 120_000);
});
