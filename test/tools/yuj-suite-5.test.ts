// The Yuj surface against more of the behaviour its reference's own tests
// pin (schema validation, the todo tool, task-file scoping), through the
// real dispatcher on the real _base profile and on real files: the exact
// text the model reads and what is on disk afterwards.

import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { createDeferredTools } from "../../core/profiles/deferred.js";
import { applyChanges } from "../../core/agents/apply-changes.js";
import { collectChanges, describeChanges } from "../../core/agents/changes.js";
import { openWorktree, removeWorktree } from "../../core/agents/worktree.js";
import { childToolset, createSubagentRunner } from "../../core/agents/runner.js";
import { readOnlyCallsGuard } from "../../core/agents/read-only-calls.js";
import { guardCallOf } from "../../core/tool-facts.js";
import { builtinHandlers } from "../../tools/registry.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { loadConfig } from "../../core/config/load.js";
import { deferredToolsGuard } from "../../tools/guards/deferred-tools.js";
import { baseToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { schemaRejectText, yujCall } from "../support/yuj-call.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let t: TestToolContext;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await t?.cleanup();
  t = await makeToolContext(adjust);
};
beforeEach(() => fresh());
afterEach(() => t.cleanup());

const dispatch = (name: string, args: unknown) => yujCall(t, name, args);

const rejectEnvelope = schemaRejectText;

describe("schema_validation = reject: each error names its path and the JSON Schema keyword that failed", () => {
  beforeEach(() =>
    fresh((c) => {
      c.tools.schema_validation = "reject";
      c.tools.background_enabled = true;
      c.tools.checkpoint_enabled = true;
      c.tools.run_tests.enabled = true;
      c.tools.list_definitions.enabled = true;
      c.tools.lazy_loading_enabled = true;
    }),
  );

  it.each([
    ["bash", {}, "missing", "string", "$.cmd", "required"],
    ["bash", { cmd: 7 }, "integer", "string", "$.cmd", "type"],
    ["bash_poll", {}, "missing", "string", "$.proc_id", "required"],
    ["bash_kill", { proc_id: 7 }, "integer", "string", "$.proc_id", "type"],
    ["read", {}, "missing", "string", "$.path", "required"],
    ["read", { path: "x.py", offset: true }, "boolean", "integer", "$.offset", "type"],
    ["write", { path: "x.py", content: false }, "boolean", "string", "$.content", "type"],
    ["edit", { path: "x.py", old_str: "before", new_str: [] }, "array", "string", "$.new_str", "type"],
    ["glob", { pattern: "*.py", page: "one" }, "string", "integer", "$.page", "type"],
    ["grep", { pattern: "x", path: 3 }, "integer", "string", "$.path", "type"],
    ["checkpoint", { goal: 7 }, "integer", "string", "$.goal", "type"],
    ["rewind", {}, "missing", "string", "$.report", "required"],
    ["run_tests", { last_failed: "false" }, "string", "boolean", "$.last_failed", "type"],
    ["list_definitions", { path: null }, "null", "string", "$.path", "type"],
    ["load_tools", { names: "write" }, "string", "array", "$.names", "type"],
    ["done", { message: 1 }, "integer", "string", "$.message", "type"],
    ["read", { path: "x.py", future: 1 }, "integer", "no such field", "$.future", "additionalProperties"],
  ])("%s %j", async (tool, args, actual, expected, at, keyword) => {
    expect(await dispatch(tool, args)).toEqual({ ok: false, text: rejectEnvelope(tool, [{ actual, expected, keyword, path: at }]) });
  });
});

describe("write_todos: the reference's results and rules", () => {
  const todo = (description: string, status: string) => ({ description, status });
  beforeEach(() =>
    fresh((c) => {
      c.tools.todos_enabled = true;
      c.tools.todos_max_items = 3;
    }),
  );

  it("replaces the list: OK with the count, then the items", async () => {
    const r = await dispatch("write_todos", { todos: [todo("Implement runtime", "completed"), todo("Run focused tests", "in_progress")] });
    expect(r).toEqual({ ok: true, text: "OK: replaced todo list with 2 items\n[x] Implement runtime\n[>] Run focused tests" });
    expect(await dispatch("write_todos", { todos: [] })).toEqual({ ok: true, text: "OK: replaced todo list with 0 items" });
    expect(fs.readdirSync(t.cwd)).toEqual([]);
  });

  it("with schema validation off, the handler refuses two in_progress items and a list over todos_max_items", async () => {
    expect(await dispatch("write_todos", { todos: [todo("First", "in_progress"), todo("Second", "in_progress")] })).toEqual({
      ok: false,
      text: "ERROR: write_todos validation failed: at most one in_progress item is allowed; items 1, 2 are in_progress",
    });
    t.ctx.config.tools.todos_max_items = 1;
    expect(await dispatch("write_todos", { todos: [todo("First", "pending"), todo("Second", "blocked")] })).toEqual({
      ok: false,
      text: "ERROR: write_todos validation failed: the list has 2 items and tools.todos_max_items is 1; merge or drop items",
    });
    expect(t.events).toEqual([]);
    expect(fs.existsSync(path.join(t.cwd, ".solver"))).toBe(false);
  });

  it("under reject, two in_progress items fail the schema's maxContains at $.todos, an unknown status its enum", async () => {
    t.ctx.config.tools.schema_validation = "reject";
    expect(await dispatch("write_todos", { todos: [todo("First", "in_progress"), todo("Second", "in_progress")] })).toEqual({
      ok: false,
      text: rejectEnvelope("write_todos", [{ actual: "array", expected: 'at most 1 item(s) with status "in_progress"', keyword: "maxContains", path: "$.todos" }]),
    });
    expect(await dispatch("write_todos", { todos: [todo("First", "paused")] })).toEqual({
      ok: false,
      text: rejectEnvelope("write_todos", [
        { actual: "string", expected: '"pending" | "in_progress" | "completed" | "cancelled" | "blocked"', keyword: "enum", path: "$.todos[0].status" },
      ]),
    });
    expect((await dispatch("write_todos", { todos: [] })).ok).toBe(true);
    expect(t.events).toEqual([{ type: "todo_updated", todos: [] }]);
  });

  it("the schema the model is sent says it: contains status in_progress, at most once, none needed", () => {
    const spec = baseToolset(t.ctx.config).tools.get("write_todos")!.spec.parameters as { properties: { todos: Record<string, unknown> } };
    expect(spec.properties.todos).toMatchObject({
      type: "array",
      contains: { type: "object", properties: { status: { const: "in_progress" } }, required: ["status"] },
      minContains: 0,
      maxContains: 1,
    });
  });
});

describe("deferred loading: the reference's words for a hidden call, a load and the cap", () => {
  beforeEach(() =>
    fresh((c) => {
      c.tools.lazy_loading_enabled = true;
      c.tools.run_tests.enabled = true;
      c.tools.list_definitions.enabled = true;
      c.tools.todos_enabled = true;
      c.tools.think_enabled = true;
    }),
  );

  it("a hidden tool's call names the loader; load_tools answers 'Activated tools:'; past the cap nothing loads", async () => {
    const toolset = baseToolset(t.ctx.config);
    const deferred = createDeferredTools(toolset, []);
    t.ctx.toolLoader = deferred;
    const refused = await deferredToolsGuard(deferred).before!({ tool: "grep" } as never, {} as never);
    expect(refused).toBe(
      'ERROR: {"error":{"loader":"load_tools","message":"grep is not active in this session yet. Call load_tools with names [\\"grep\\"]; ' +
        'it is available from your next response on.","tool":"grep","type":"tool_not_active","version":1}}',
    );
    expect(await dispatch("load_tools", { names: ["grep"] })).toEqual({
      ok: true,
      text: "Activated tools: grep (available from your next response on)\nActive tools: bash, read, write, edit, grep, load_tools, ask_user, done",
    });
    expect(await dispatch("load_tools", { names: ["grep"] })).toEqual({
      ok: true,
      text: "Activated tools: none (every name given is already active)\nActive tools: bash, read, write, edit, grep, load_tools, ask_user, done",
    });
    const over = await dispatch("load_tools", { names: ["glob", "think", "run_tests", "list_definitions"] });
    expect(over.ok).toBe(false);
    expect(over.text).toMatch(/^ERROR: load_tools: loading glob, think, run_tests, list_definitions would make 9 tools, over the active-tool limit 8 \(this profile's max_tools\); nothing was loaded\./);
    expect(deferred.visible().has("glob")).toBe(false);
  });
});

describe("background commands: the surface follows the setting and the start says so", () => {
  it("bash takes background only when it is on, with bash_poll and bash_kill; a start reads 'Started background process'", async () => {
    const off = baseToolset(t.ctx.config);
    expect(off.tools.has("bash_poll") || off.tools.has("bash_kill")).toBe(false);
    expect(Object.keys(off.tools.get("bash")!.spec.parameters.properties as object)).toEqual(["cmd"]);
    await fresh((c) => (c.tools.background_enabled = true));
    const on = baseToolset(t.ctx.config);
    expect(on.tools.has("bash_poll") && on.tools.has("bash_kill")).toBe(true);
    expect((on.tools.get("bash")!.spec.parameters.properties as Record<string, unknown>).background).toMatchObject({ type: "boolean" });
    const started = await dispatch("bash", { cmd: "printf 'hello from child\\n'", background: true });
    expect(started).toEqual({ ok: true, text: "Started background process j1. Poll it with bash_poll(proc_id='j1')." });
    expect(await dispatch("bash_poll", { proc_id: "j1", timeout_s: 5 })).toEqual({ ok: true, text: "hello from child\n[background process j1: exited (0)]" });
  });

  it("a poll ends with the reference's footer: running, then exited with the code", async () => {
    await fresh((c) => (c.tools.background_enabled = true));
    await t.put({ "release.sh": "echo ready; while [ ! -e release ]; do sleep 0.05; done; echo request complete; exit 3\n" });
    await dispatch("bash", { cmd: "bash release.sh", background: true });
    expect(await dispatch("bash_poll", { proc_id: "j1", timeout_s: 5 })).toEqual({ ok: true, text: "ready\n[background process j1: running]" });
    fs.writeFileSync(path.join(t.cwd, "release"), "");
    expect(await dispatch("bash_poll", { proc_id: "j1", timeout_s: 5 })).toEqual({ ok: true, text: "request complete\n[background process j1: exited (3)]" });
    expect(await dispatch("bash_kill", { proc_id: "j1" })).toEqual({ ok: true, text: "Background process j1 already exited (3)" });
  });

  it("bash_kill answers 'Killed background process ID' once the group is gone", async () => {
    await fresh((c) => (c.tools.background_enabled = true));
    await dispatch("bash", { cmd: "sleep 30", background: true });
    const killed = await dispatch("bash_kill", { proc_id: "j1" });
    expect(killed.text).toMatch(/^Killed background process j1 \(process group \d+\)$/);
    expect(await dispatch("bash_poll", { proc_id: "j1", timeout_s: 0 })).toEqual({ ok: true, text: "[background process j1: killed]" });
  });
});

describe("an isolated child's change set, in the reference's words", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const dir = (prefix: string) => {
    const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    made.push(d);
    return d;
  };
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

  async function childChanged(): Promise<{ repo: string; taskDir: string; set: Awaited<ReturnType<typeof collectChanges>> }> {
    const repo = dir("yuj-suite5-repo-");
    git(repo, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(repo, "app.py"), "value = 1\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    const wt = await openWorktree(repo, dir("yuj-suite5-state-"));
    if ("error" in wt) throw new Error(wt.error);
    made.push(wt.holder);
    fs.writeFileSync(path.join(wt.dir, "app.py"), "value = 2\n");
    const taskDir = dir("yuj-suite5-task-");
    const set = await collectChanges(wt, "task-1", taskDir);
    await removeWorktree(wt);
    return { repo, taskDir, set };
  }

  it("is ready; applying it says OK: applied isolated change set; a second apply says already applied", async () => {
    const { repo, taskDir, set } = await childChanged();
    expect(describeChanges(set).split("\n")).toContain("Isolated change set task-1: ready.");
    expect(describeChanges(set)).toContain('subagent_changes(task_id="task-1"');
    expect(fs.readFileSync(path.join(repo, "app.py"), "utf8")).toBe("value = 1\n");
    expect(await applyChanges(set, taskDir)).toEqual({ ok: true, text: "OK: applied isolated change set task-1: 1 file (app.py)" });
    expect(fs.readFileSync(path.join(repo, "app.py"), "utf8")).toBe("value = 2\n");
    const saved = JSON.parse(fs.readFileSync(path.join(taskDir, "changes.json"), "utf8"));
    expect(await applyChanges(saved, taskDir)).toEqual({ ok: false, text: "apply_subagent refused: isolated change set task-1 was already applied" });
  });

  it("a patch too large to keep is too_large, and applying it is refused as not ready", async () => {
    const { taskDir, set } = await childChanged();
    const big = { ...set, tooLarge: true, patch: undefined, bytes: 17_000_000 };
    expect(describeChanges(big).split("\n")).toContain("Isolated change set task-1: too_large.");
    expect(await applyChanges(big, taskDir)).toEqual({
      ok: false,
      text: "apply_subagent refused: isolated change set task-1 is not ready: its patch (17000000 bytes) was too large to keep; nothing can be applied",
    });
  });

  it("is refused as stale when the parent's file changed since the child started, and nothing is applied", async () => {
    const { repo, taskDir, set } = await childChanged();
    fs.writeFileSync(path.join(repo, "app.py"), "operator value\n");
    const refused = await applyChanges(set, taskDir);
    expect(refused.ok).toBe(false);
    expect(refused.text).toMatch(/^apply_subagent refused: stale parent state: 1 file the patch touches changed since task task-1 started: app\.py\. Nothing was applied\./);
    expect(fs.readFileSync(path.join(repo, "app.py"), "utf8")).toBe("operator value\n");
  });
});

describe("task nesting and the reference's setting names", () => {
  it("a child at the depth cap is refused with 'depth cap N reached'", async () => {
    const runner = createSubagentRunner({ parent: { config: t.ctx.config }, depth: 1 } as never);
    const r = await runner.run("explorer", "nest", new AbortController().signal);
    expect(r).toMatchObject({
      ok: false,
      modelText: "task refused: depth cap 1 reached: a child session may not start another beyond depth 1 ([tools].task_max_depth)",
    });
  });

  it("[tools] stale_guard_mode and subagent_depth are read as stale_file and task_max_depth, with a note", () => {
    const file = path.join(t.cwd, "reference.toml");
    fs.writeFileSync(file, '[tools]\nstale_guard_mode = "block"\nsubagent_depth = 2\n');
    const loaded = loadConfig({ cwd: t.cwd, env: { HOME: t.cwd }, home: t.cwd, configFiles: [file] });
    expect(loaded.config.tools.stale_file).toBe("block");
    expect(loaded.config.tools.task_max_depth).toBe(2);
    expect(loaded.notes).toEqual([
      `${file}: tools.stale_guard_mode is read as tools.stale_file (yuj's name for the setting); rename the key to silence this note`,
      `${file}: tools.subagent_depth is read as tools.task_max_depth (yuj's name for the setting); rename the key to silence this note`,
    ]);
    fs.writeFileSync(file, '[tools]\nstale_guard_mode = "strict"\n');
    expect(() => loadConfig({ cwd: t.cwd, env: { HOME: t.cwd }, home: t.cwd, configFiles: [file] })).toThrow(/tools\.stale_guard_mode \(read as tools\.stale_file\)/);
  });
});

describe("a read-only mount (the reference's task-file scoping): writes fail as write_failed, nothing changes", () => {
  const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  // The handlers run in a child inside its own mount namespace, where the
  // task directory is bound read-only over the real one.
  const script = `
    import { makeToolContext } from ${JSON.stringify(path.join(repoRoot, "test/support/tool-context.ts"))};
    import { applyPatchTool } from ${JSON.stringify(path.join(repoRoot, "tools/yuj/apply_patch.ts"))};
    import { udiffTool } from ${JSON.stringify(path.join(repoRoot, "tools/yuj/udiff.ts"))};
    import { writeTool } from ${JSON.stringify(path.join(repoRoot, "tools/yuj/write.ts"))};
    import { editTool } from ${JSON.stringify(path.join(repoRoot, "tools/yuj/edit.ts"))};
    const t = await makeToolContext();
    t.ctx.cwd = process.argv[2];
    const run = async (tool, args) => (await tool.run(tool.schema.parse(args), t.ctx)).modelText;
    const out = [
      await run(applyPatchTool, { patch: "*** Begin Patch\\n*** Update File: file\\n@@\\n-before\\n+after\\n*** End Patch\\n" }),
      await run(udiffTool, { patch: "--- a/file\\n+++ b/file\\n@@ -1 +1 @@\\n-before\\n+final\\n" }),
      await run(writeTool, { path: "new.txt", content: "created" }),
      await run(editTool, { path: "file", old_str: "before", new_str: "changed" }),
    ];
    await t.cleanup();
    process.stdout.write(JSON.stringify(out));
  `;

  it("apply_patch and udiff say write_failed; write and edit name the error without the host's temporary path", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yuj-suite5-ro-")));
    try {
      const source = path.join(base, "source");
      const view = path.join(base, "view");
      fs.mkdirSync(source);
      fs.mkdirSync(view);
      fs.writeFileSync(path.join(source, "file"), "before\n");
      const runner = path.join(base, "run.mts");
      fs.writeFileSync(runner, script);
      const cmd = `mount --bind -o ro '${source}' '${view}' && exec '${process.execPath}' --import tsx '${runner}' '${view}'`;
      const r = spawnSync("unshare", ["-m", "sh", "-c", cmd], { cwd: repoRoot, encoding: "utf8", timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        '<apply_patch ok="false" error_kind="write_failed" v="1">\nERROR: cannot write file: EROFS: read-only file system; no file changed\n</apply_patch>',
        "ERROR: udiff write_failed: cannot write file: EROFS: read-only file system; no file changed",
        "ERROR: cannot write new.txt: EROFS: read-only file system",
        "ERROR: cannot edit file: EROFS: read-only file system",
      ]);
      expect(fs.readdirSync(source)).toEqual(["file"]);
      expect(fs.readFileSync(path.join(source, "file"), "utf8")).toBe("before\n");
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("a read-only agent gets bash, as the reference's does, and only commands that look run", () => {
  const def = (tools?: string[]) => ({ name: "probe", description: "looks", mode: "subagent" as const, tools, readOnly: true, workspace: "shared" as const, file: "probe.toml" });
  const child = (tools?: string[]) => childToolset(def(tools), builtinHandlers(), t.ctx.config, baseToolset(t.ctx.config), { provider: "anthropic", id: "claude-test" });

  it("an agent file naming read, bash and done loads with exactly those; write is still refused", () => {
    expect([...child(["read", "bash", "done"]).tools.keys()]).toEqual(["bash", "read", "done"]);
    expect(() => child(["read", "write"])).toThrow("field tools: write can change files, which a read-only agent may not; set read_only = false or drop them");
    expect(child().tools.has("bash") && !child().tools.has("write") && !child().tools.has("edit")).toBe(true);
  });

  it.each([
    ["ls", undefined],
    ["cat notes.txt", undefined],
    ["git status", undefined],
    ["touch changed.txt", "blocked"],
    ["python3 -c 'print(1)'", "blocked"],
    ["echo x > out.txt", "blocked"],
  ])("bash %j: %s", async (cmd, refused) => {
    const bash = child(["read", "bash", "done"]).tools.get("bash")!;
    const call = guardCallOf(bash.handler, "c1", { cmd }, { name: "bash", cwd: t.cwd } as never);
    const answer = await readOnlyCallsGuard().before!(call, {} as never);
    if (!refused) expect(answer).toBeUndefined();
    else
      expect(answer).toBe(
        "ERROR: read-only subagent blocked bash: this command may change files or run programs; " +
          "a read-only agent runs only commands that read, list or search (cat, head, tail, ls, find, grep, rg, wc, git status/log/diff/show)",
      );
  });
});

describe("a read-only agent's bash through the built yuj", () => {
  it("a reference-style agent file (read, bash, done) runs ls, and touch is refused, the file never made", async () => {
    const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yuj-suite5-agent-")));
    try {
      const turns = [
        { tool_calls: [{ name: "task", arguments: { agent: "probe", prompt: "List the files." } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "ls" } }, { name: "bash", arguments: { cmd: "touch shell-write.txt" } }] },
        { text: "notes.txt is there." },
        { tool_calls: [{ name: "done", arguments: { message: "listed" } }] },
      ];
      fs.writeFileSync(path.join(cwd, "notes.txt"), "the answer is 42\n");
      fs.writeFileSync(path.join(cwd, "scenario.json"), JSON.stringify({ turns }));
      fs.writeFileSync(path.join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n');
      fs.mkdirSync(path.join(cwd, ".yuj", "agents"), { recursive: true });
      fs.writeFileSync(path.join(cwd, ".yuj", "agents", "probe.toml"), 'description = "looks"\ntools = ["read", "bash", "done"]\n');
      const env = isolatedEnv();
      const res = await runCli(["code", "go", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
      expect(res.code, res.stderr).toBe(0);
      const [trace] = traceFiles(env);
      const rows = fs.readFileSync(path.join(path.dirname(trace!), "tasks", "task-1", "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; ok?: boolean; modelText?: string });
      const bash = rows.filter((r) => r.type === "tool_result" && r.name === "bash");
      expect(bash[0]).toMatchObject({ ok: true });
      expect(bash[0]!.modelText).toContain("notes.txt");
      expect(bash[1]).toMatchObject({ ok: false, modelText: expect.stringMatching(/^ERROR: read-only subagent blocked bash: /) });
      expect(fs.existsSync(path.join(cwd, "shell-write.txt"))).toBe(false);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("post-edit checks written as the reference writes them: `when` as an expression over path and ext, or empty", () => {
  const PY_SYNTAX = "python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' {path}";
  let g: GuardedSession | undefined;
  afterEach(async () => {
    await g?.cleanup();
    g = undefined;
  });
  const configWith = (when: string, on_fail = "append") => {
    const file = path.join(t.cwd, "checks.toml");
    fs.writeFileSync(file, `[post_edit_check]\nenabled = true\n[[post_edit_check.checks]]\nname = "py-syntax"\ntrigger = "edit|write"\nwhen = ${JSON.stringify(when)}\ncmd = ${JSON.stringify(PY_SYNTAX)}\non_fail = "${on_fail}"\n`);
    return loadConfig({ cwd: t.cwd, env: { HOME: t.cwd }, home: t.cwd, configFiles: [file] }).config.post_edit_check;
  };
  const session = async (when: string, on_fail = "append") => {
    const section = configWith(when, on_fail);
    g = await guardedSession((c) => (c.post_edit_check = section));
    return g;
  };

  it.each([
    ["ext == '.py'", "f.py", true],
    ["ext == '.py'", "f.txt", false],
    ["path.startswith('src/')", "src/a.py", true],
    ["ext == '.py' and not path.startswith('tests/')", "src/a.py", true],
    ["ext == '.py' and not path.startswith('tests/')", "tests/a.py", false],
    ["", "notes.txt", true],
  ])("when %j on %s runs the check: %s", async (when, file, runs) => {
    const s5 = await session(when);
    const r = await s5.call("write", { path: file, content: "def f(:\n    pass\n" });
    expect(r.ok).toBe(true);
    expect(r.modelText.startsWith("OK")).toBe(true);
    if (runs) expect(r.modelText).toContain(`post-edit check 'py-syntax' failed for ${file}`);
    else expect(r.modelText).not.toContain("post-edit check");
  });

  it("block undoes a write the check rejects: a new file is removed, an overwrite gets its bytes back", async () => {
    const s5 = await session("ext == '.py'", "block");
    const created = await s5.call("write", { path: "f.py", content: "def f(:" });
    expect(created.ok).toBe(false);
    expect(created.modelText).toMatch(/^ERROR: write blocked by post-edit check 'py-syntax' for f\.py/);
    expect(fs.existsSync(path.join(s5.cwd, "f.py"))).toBe(false);
    await s5.put({ "g.py": "def original():\n    pass\n" });
    expect((await s5.call("write", { path: "g.py", content: "def broken(:" })).ok).toBe(false);
    expect(fs.readFileSync(path.join(s5.cwd, "g.py"), "utf8")).toBe("def original():\n    pass\n");
  });

  it.each([["__import__('os')"], ["path.format(0) == 'x'"], ["ext == '.py' and 1 == 1"]])("an expression outside the small language, %j, is a config error", (when) => {
    expect(() => configWith(when)).toThrow(/post_edit_check\.checks\[0\]\.when: not a glob, and not an expression yuj reads: /);
  });
});

describe("[tools].active_default, the reference's key for deferred loading's first tools", () => {
  const load = (text: string) => {
    const file = path.join(t.cwd, "lazy-tools.toml");
    fs.writeFileSync(file, text);
    return loadConfig({ cwd: t.cwd, env: { HOME: t.cwd }, home: t.cwd, configFiles: [file] }).config;
  };

  it("sets the first request's tools in place of the profile's", () => {
    const config = load('[tools]\nlazy_loading_enabled = true\nactive_default = ["bash", "read", "done"]\n');
    expect(config.tools.active_default).toEqual(["bash", "read", "done"]);
    const deferred = createDeferredTools(baseToolset(config), []);
    expect([...deferred.visible()].sort()).toEqual(["ask_user", "bash", "done", "load_tools", "read"]);
  });

  it("an unknown name stops the start, naming it", () => {
    const config = load('[tools]\nlazy_loading_enabled = true\nactive_default = ["not_a_tool"]\n');
    expect(() => baseToolset(config)).toThrow(/^\[tools\]\.active_default: unknown tool names: not_a_tool \(the tools of profile _base: bash, /);
  });
});
