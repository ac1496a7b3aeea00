// Named agents through the built `yuj`, as a user runs them: the scripted
// model plays the parent and then the child in turn (one provider, one
// sequence of turns), and each child runs as its own session inside the
// parent's folder, with its own trace and history.

import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";

function project(files: Record<string, string>, turns: unknown[], toml = ""): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-agents-")));
  for (const [rel, text] of Object.entries({ ...files, "scenario.json": JSON.stringify({ turns }) })) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  writeFileSync(join(cwd, "scripted.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n${toml}`);
  return cwd;
}

interface Row {
  type: string;
  name?: string;
  ok?: boolean;
  modelText?: string;
  agentId?: string;
  reason?: string;
}
const rowsOf = (text: string): Row[] => text.trim().split("\n").filter((l) => l).map((l) => JSON.parse(l) as Row);
const results = (rows: Row[], name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);

async function run(cwd: string, userAgents: Record<string, string> = {}) {
  const env = isolatedEnv();
  for (const [name, text] of Object.entries(userAgents)) {
    mkdirSync(join(env.XDG_CONFIG_HOME!, "yuj", "agents"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "yuj", "agents", name), text);
  }
  const res = await runCli(["code", "go", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
  const [trace] = traceFiles(env);
  const sessionDir = trace ? dirname(trace) : "";
  const child = (id: string) => rowsOf(readFileSync(join(sessionDir, "tasks", id, "trace.jsonl"), "utf8"));
  return { res, rows: rowsOf(res.stdout), sessionDir, child, env };
}

describe("task: named agents as child sessions", () => {
  it("the built-in explorer answers from its own session; it has no writing tools, and its tokens count in the parent's", async () => {
    const cwd = project({ "notes.txt": "the answer is 42\n" }, [
      { tool_calls: [{ name: "task", arguments: { agent: "explorer", prompt: "What is the answer in notes.txt?" } }], usage: { input: 10, output: 1 } },
      { tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }, { name: "write", arguments: { path: "notes.txt", content: "changed\n" } }], usage: { input: 100, output: 7 } },
      { text: "notes.txt line 1 says 42.", usage: { input: 200, output: 9 } },
      { tool_calls: [{ name: "done", arguments: { message: "the child said 42" } }], usage: { input: 20, output: 2 } },
    ]);
    const { res, rows, sessionDir, child } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const [task] = results(rows, "task");
    expect(task?.ok).toBe(true);
    expect(task?.modelText).toContain("task_id: task-1");
    expect(task?.modelText).toContain("notes.txt line 1 says 42.");
    // The read-only child was never offered write: the call is refused and the file is as it was.
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("the answer is 42\n");
    const childRows = child("task-1");
    expect(results(childRows, "read")[0]?.ok).toBe(true);
    expect(results(childRows, "write")[0]?.ok).toBe(false);
    expect(childRows.every((r) => r.agentId === "task-1")).toBe(true);
    expect(childRows.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
    const saved = JSON.parse(readFileSync(join(sessionDir, "tasks", "task-1", "history.json"), "utf8"));
    expect(saved.history[0]).toEqual({ role: "user", text: "What is the answer in notes.txt?" });
    // The parent's own trace has none of the child's rows.
    expect(results(rows, "read")).toEqual([]);
    // Parent turns 10+20 in, child turns 100+200.
    expect(JSON.parse(readFileSync(join(sessionDir, "state.json"), "utf8")).usage).toMatchObject({ inputTokens: 330, outputTokens: 19 });
  }, 90_000);

  it("a project agent in Markdown writes in the shared workspace and stops at its turn limit; the project file wins over the user's", async () => {
    const cwd = project(
      {
        ".yuj/agents/writer.md": "---\ndescription: writes files\nread_only: false\ntools: [read, write]\nmax_turns: 2\n---\nYou write what you are told.\n",
      },
      [
        { tool_calls: [{ name: "task", arguments: { agent: "writer", prompt: "write a.txt then b.txt" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "A\n" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "B\n" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "c.txt", content: "C\n" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
      ],
    );
    // The user's writer is read-only: had it been chosen, no file would be written.
    const { res, rows, child } = await run(cwd, { "writer.toml": 'description = "the user\'s writer"\n' });
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("A\n");
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("B\n");
    const [task] = results(rows, "task");
    expect(task?.ok).toBe(false);
    expect(task?.modelText).toContain("status: max_turns");
    expect(child("task-1").at(-1)).toMatchObject({ type: "run_finished", reason: "max_turns" });
    // The child's third turn never ran: the parent got it (a write from the parent itself).
    expect(existsSync(join(cwd, "c.txt"))).toBe(true);
    expect(results(rows, "write")).toHaveLength(1);
  }, 90_000);

  it("a bad agent file is refused naming the file and the field; a child cannot start a grandchild", async () => {
    const cwd = project(
      {
        ".yuj/agents/broken.toml": 'description = "x"\nworkspace = "elsewhere"\n',
        ".yuj/agents/boss.toml": 'description = "a main agent"\nmode = "main"\n',
        ".yuj/agents/nester.toml": 'description = "tries to nest"\nread_only = false\ntools = ["task"]\n',
        ".yuj/agents/greedy.toml": 'description = "read-only but asks for write"\ntools = ["read", "write"]\n',
      },
      [
        { tool_calls: [{ name: "task", arguments: { agent: "broken", prompt: "go" } }] },
        { tool_calls: [{ name: "task", arguments: { agent: "nester", prompt: "go" } }] },
        { tool_calls: [{ name: "task", arguments: { agent: "explorer", prompt: "deeper" } }] },
        { text: "could not nest" },
        { tool_calls: [{ name: "task", arguments: { agent: "missing", prompt: "go" } }] },
        { tool_calls: [{ name: "task", arguments: { agent: "greedy", prompt: "go" } }] },
        { tool_calls: [{ name: "task", arguments: { agent: "boss", prompt: "go" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
      ],
    );
    const { res, rows, child } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const [broken, nester, missing, greedy, boss] = results(rows, "task");
    expect(broken?.ok).toBe(false);
    expect(broken?.modelText).toContain(join(cwd, ".yuj/agents/broken.toml"));
    expect(broken?.modelText).toContain("field workspace");
    expect(nester?.modelText).toContain("could not nest");
    const [grandchild] = results(child("task-1"), "task");
    expect(grandchild?.ok).toBe(false);
    expect(grandchild?.modelText).toContain("beyond depth 1");
    expect(missing?.modelText).toMatch(/agent "missing": no missing\.toml or missing\.md/);
    expect(boss?.modelText).toContain('has mode = "main", so it is not run as a child');
    expect(greedy?.modelText).toMatch(/greedy\.toml\): field tools: write can change files/);
  }, 90_000);
});
