// Isolated agents through the built `yuj` on real git repositories, with the
// real sandbox: the scripted model plays the parent and the child in turn.
// The child works in a temporary worktree of the parent's state and cannot
// write the parent's files; its patch (a binary file, a mode change, an add
// and a delete) is paged and applied by the parent, or refused when the
// parent changed a file it touches. Whatever way the child ends (an answer,
// its turn limit, yuj killed outright) no worktree and no process is left.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, startCli, traceFiles, waitUntil } from "../support/cli.js";
import { noBwrap } from "../sandbox/support.js";

const WORKER = 'description = "changes files in its own worktree"\nread_only = false\nworkspace = "isolated"\n';

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
}

/** A git project with the scripted provider and the worker agent; `turns` play parent and child in order. */
function project(files: Record<string, string>, turns: unknown[], agent = WORKER, toml = ""): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-iso-e2e-")));
  git(cwd, "init", "-q", "-b", "main");
  for (const [rel, text] of Object.entries({ ".gitignore": "ignored/\nscenario.json\nscripted.toml\n", ...files })) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  git(cwd, "add", "-A");
  git(cwd, "commit", "-q", "-m", "init");
  mkdirSync(join(cwd, ".yuj", "agents"), { recursive: true });
  writeFileSync(join(cwd, ".yuj", "agents", "worker.toml"), agent);
  scenario(cwd, turns);
  writeFileSync(
    join(cwd, "scripted.toml"),
    // The child's chmod would ask: the rule lets the sandbox, not an approval, be what stops it.
    `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n[sandbox]\nmode = "on"\n[[permissions.rules]]\ntool = "bash"\naction = "allow"\n${toml}`,
  );
  return cwd;
}

const scenario = (cwd: string, turns: unknown[]) => writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));

/** Its own TMPDIR, so what the worktrees leave there can be listed. */
function env(): Record<string, string> {
  const tmp = mkdtempSync(join(tmpdir(), "yuj-iso-tmp-"));
  return isolatedEnv({ TMPDIR: tmp });
}

interface Row {
  type: string;
  name?: string;
  ok?: boolean;
  modelText?: string;
  text?: string;
}
const rowsOf = (text: string): Row[] => text.trim().split("\n").filter((l) => l).map((l) => JSON.parse(l) as Row);
const results = (rows: Row[], name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);
const args = ["code", "go", "--config", "scripted.toml", "--output", "jsonl"];

/** No worktree of the repository but its own, nothing of ours in the temp folder, no record in the state folder. */
function nothingLeft(cwd: string, e: Record<string, string>): void {
  expect(git(cwd, "worktree", "list", "--porcelain").match(/^worktree /gm)).toEqual(["worktree "]);
  expect(readdirSync(e.TMPDIR!).filter((n) => n.startsWith("yuj-task-"))).toEqual([]);
  const records = join(e.XDG_STATE_HOME!, "yuj", "worktrees");
  expect(existsSync(records) ? readdirSync(records) : []).toEqual([]);
}

/** A process whose command line starts with `command` (the command itself, not a sandbox or shell that names it). */
const running = (command: string) => spawnSync("pgrep", ["-f", `^${command}`]).status === 0;

describe.skipIf(noBwrap)("task with workspace = \"isolated\"", () => {
  it("the child changes only its worktree; its patch (binary, mode, add, delete) is paged and applied by the parent; nothing is left", async () => {
    const cwd = project({ "a.txt": "one\n", "run.sh": "echo hi\n", "old.txt": "old\n" }, []);
    // Uncommitted and untracked work of the parent's, which the child starts from; an ignored file it does not get.
    writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
    writeFileSync(join(cwd, "new.txt"), "untracked\n");
    mkdirSync(join(cwd, "ignored"));
    writeFileSync(join(cwd, "ignored", "secret.txt"), "s\n");
    const childCmd = [
      "cat a.txt new.txt",
      "test -e ignored/secret.txt && echo IGNORED-PRESENT || echo IGNORED-ABSENT",
      "dd if=/usr/bin/true of=logo.bin bs=64 count=1 status=none",
      "chmod +x run.sh",
      "rm old.txt",
      `touch ${cwd}/escape.txt 2>/dev/null && echo ESCAPED || echo PARENT-READ-ONLY`,
    ].join("; ");
    scenario(cwd, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "change things" } }], usage: { input: 10, output: 1 } },
      { tool_calls: [{ name: "bash", arguments: { cmd: childCmd } }], usage: { input: 100, output: 5 } },
      {
        tool_calls: [
          { name: "write", arguments: { path: "added.txt", content: "from write\n" } },
          { name: "write", arguments: { path: "a.txt", content: "one\ntwo\nthree\n" } },
          { name: "write", arguments: { path: join(cwd, "escape2.txt"), content: "escaped\n" } },
        ],
      },
      { text: "worked in the worktree" },
      { tool_calls: [{ name: "bash", arguments: { cmd: "test -e logo.bin && echo PRESENT || echo ABSENT; cat a.txt" } }] },
      { tool_calls: [{ name: "subagent_changes", arguments: { task_id: "task-1", offset: 0, limit: 4 } }] },
      { tool_calls: [{ name: "subagent_changes", arguments: { task_id: "task-1", offset: 4, limit: 2000 } }] },
      { tool_calls: [{ name: "apply_subagent", arguments: { task_id: "task-1" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "applied" } }] },
    ]);
    const e = env();
    const indexBefore = readFileSync(join(cwd, ".git", "index"));
    const headBefore = git(cwd, "rev-parse", "HEAD");
    const res = await runCli(args, { cwd, env: e, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const [task] = results(rows, "task");
    expect(task?.ok, task?.modelText).toBe(true);
    expect(task?.modelText).toContain("task_id: task-1");
    expect(task?.modelText).toContain("workspace: isolated");
    expect(task?.modelText).toContain("added logo.bin (binary)");
    expect(task?.modelText).toContain("modified run.sh (+0 -0, mode 100644 -> 100755)");
    expect(task?.modelText).toContain("deleted old.txt");
    expect(task?.modelText).toContain("added added.txt (+1 -0)");
    expect(task?.modelText).toContain('subagent_changes(task_id="task-1"');
    expect(task?.modelText).toContain("worked in the worktree");
    // The child saw the parent's uncommitted and untracked files, not the ignored one, and could not write the parent.
    const sessionDir = dirname(traceFiles(e)[0]!);
    const child = rowsOf(readFileSync(join(sessionDir, "tasks", "task-1", "trace.jsonl"), "utf8"));
    const [childBash] = results(child, "bash");
    expect(childBash?.modelText).toContain("one\ntwo\nuntracked");
    expect(childBash?.modelText).toContain("IGNORED-ABSENT");
    expect(childBash?.modelText).toContain("PARENT-READ-ONLY");
    expect(existsSync(join(cwd, "escape.txt"))).toBe(false);
    expect(results(child, "write")[2]?.ok).toBe(false);
    expect(existsSync(join(cwd, "escape2.txt"))).toBe(false);
    // Before the apply the parent's files were its own.
    const [parentBash] = results(rows, "bash");
    expect(parentBash?.modelText).toContain("ABSENT");
    expect(parentBash?.modelText).not.toContain("three");
    const [page1, page2] = results(rows, "subagent_changes");
    expect(page1?.modelText).toMatch(/patch lines 0-3 of \d+; the next page starts at offset 4/);
    expect(page2?.modelText).toContain("GIT binary patch");
    expect(page2?.modelText).toContain("this is the end");
    const [applied] = results(rows, "apply_subagent");
    expect(applied?.ok, applied?.modelText).toBe(true);
    expect(readFileSync(join(cwd, "logo.bin"))).toEqual(readFileSync("/usr/bin/true").subarray(0, 64));
    expect(statSync(join(cwd, "run.sh")).mode & 0o111).not.toBe(0);
    expect(existsSync(join(cwd, "old.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    expect(readFileSync(join(cwd, "added.txt"), "utf8")).toBe("from write\n");
    // The user's index, HEAD and branch are as they were.
    expect(readFileSync(join(cwd, ".git", "index"))).toEqual(indexBefore);
    expect(git(cwd, "rev-parse", "HEAD")).toBe(headBefore);
    expect(git(cwd, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
    // The patch stays beside the child's trace.
    expect(existsSync(join(sessionDir, "tasks", "task-1", "changes.patch"))).toBe(true);
    nothingLeft(cwd, e);
    // The child's tokens are in the parent's.
    expect(JSON.parse(readFileSync(join(sessionDir, "state.json"), "utf8")).usage.inputTokens).toBeGreaterThanOrEqual(110);
  }, 120_000);

  it("a child that ends at its turn limit still leaves its patch; the parent's own edit of a touched file makes apply_subagent refuse, applying nothing", async () => {
    const cwd = project({ "a.txt": "a\n", "b.txt": "b\n" }, [], `${WORKER}max_turns = 1\n`);
    scenario(cwd, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "change a and b" } }] },
      {
        tool_calls: [
          { name: "write", arguments: { path: "a.txt", content: "a\nchild\n" } },
          { name: "write", arguments: { path: "b.txt", content: "b\nchild\n" } },
        ],
      },
      { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "the parent's own\n" } }] },
      { tool_calls: [{ name: "apply_subagent", arguments: { task_id: "task-1" } }] },
      { tool_calls: [{ name: "apply_subagent", arguments: { task_id: "task-9" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "refused" } }] },
    ]);
    const e = env();
    const res = await runCli(args, { cwd, env: e, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const [task] = results(rows, "task");
    expect(task?.ok).toBe(false);
    expect(task?.modelText).toContain("status: max_turns");
    expect(task?.modelText).toContain("changes: 2 files");
    const [refused, unknown] = results(rows, "apply_subagent");
    expect(refused?.ok).toBe(false);
    expect(refused?.modelText).toContain("1 file the patch touches changed since task task-1 started: a.txt.");
    expect(unknown?.modelText).toContain("no task task-9 in this session");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("the parent's own\n");
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("b\n");
    nothingLeft(cwd, e);
  }, 120_000);

  it("applying is a change of its own: a rule denying apply_subagent on one of the patch's paths refuses all of it", async () => {
    const rule = '[[permissions.rules]]\ntool = "apply_subagent"\npattern = "locked/**"\naction = "deny"\n';
    const cwd = project({ "a.txt": "a\n" }, [], WORKER, rule);
    scenario(cwd, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "write two files" } }] },
      {
        tool_calls: [
          { name: "write", arguments: { path: "free.txt", content: "free\n" } },
          { name: "write", arguments: { path: "locked/c.txt", content: "c\n" } },
        ],
      },
      { text: "wrote them" },
      { tool_calls: [{ name: "apply_subagent", arguments: { task_id: "task-1" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "denied" } }] },
    ]);
    const e = env();
    const res = await runCli(args, { cwd, env: e, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const [denied] = results(rowsOf(res.stdout), "apply_subagent");
    expect(denied?.ok).toBe(false);
    expect(denied?.modelText).toContain("permission denied");
    expect(denied?.modelText).toContain("locked/c.txt");
    expect(existsSync(join(cwd, "free.txt"))).toBe(false);
    expect(existsSync(join(cwd, "locked"))).toBe(false);
    nothingLeft(cwd, e);
  }, 120_000);

  it("yuj killed with SIGKILL mid-task leaves its worktree; the next start removes it, and no process of the child's is left", async () => {
    const cwd = project({ "a.txt": "a\n" }, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "wait" } }] },
      { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "child\n" } }, { name: "bash", arguments: { cmd: "sleep 3132" } }] },
    ]);
    const e = env();
    const records = join(e.XDG_STATE_HOME!, "yuj", "worktrees");
    const { child, done } = startCli(args, { cwd, env: e });
    await waitUntil(() => running("sleep 3132"), "the child's command running", 60_000);
    const [record] = readdirSync(records);
    const holder = JSON.parse(readFileSync(join(records, record!), "utf8")).holder as string;
    child.kill("SIGKILL");
    await done;
    // Left behind, as a killed yuj leaves it.
    expect(existsSync(holder)).toBe(true);
    expect(git(cwd, "worktree", "list")).toContain(holder);
    scenario(cwd, [{ tool_calls: [{ name: "done", arguments: { message: "ok" } }] }]);
    const res = await runCli(args, { cwd, env: e, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(rowsOf(res.stdout).some((r) => r.type === "notice" && r.text?.includes(`removed 1 isolated task worktree(s) an earlier yuj left behind: ${holder}/tree`))).toBe(true);
    expect(existsSync(holder)).toBe(false);
    await waitUntil(() => !running("sleep 3132"), "the child's command gone");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
    nothingLeft(cwd, e);
  }, 120_000);

  it("interrupted mid-task (Ctrl+C), yuj removes the worktree and ends the child's command before it exits", async () => {
    const cwd = project({ "a.txt": "a\n" }, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "wait" } }] },
      { tool_calls: [{ name: "bash", arguments: { cmd: "sleep 3133" } }] },
    ]);
    const e = env();
    const { child, done } = startCli(args, { cwd, env: e });
    await waitUntil(() => running("sleep 3133"), "the child's command running", 60_000);
    const [record] = readdirSync(join(e.XDG_STATE_HOME!, "yuj", "worktrees"));
    const holder = JSON.parse(readFileSync(join(e.XDG_STATE_HOME!, "yuj", "worktrees", record!), "utf8")).holder as string;
    child.kill("SIGINT");
    await done;
    expect(existsSync(holder)).toBe(false);
    expect(running("sleep 3133")).toBe(false);
    nothingLeft(cwd, e);
  }, 120_000);

  it("outside a git repository an isolated agent is refused with what to do", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-iso-plain-")));
    mkdirSync(join(cwd, ".yuj", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".yuj", "agents", "worker.toml"), WORKER);
    scenario(cwd, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "go" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
    ]);
    writeFileSync(join(cwd, "scripted.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n`);
    const res = await runCli(args, { cwd, env: env(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const [task] = results(rowsOf(res.stdout), "task");
    expect(task?.ok).toBe(false);
    expect(task?.modelText).toContain("is not inside a git work tree");
    expect(task?.modelText).toContain('use workspace = "shared"');
  }, 60_000);
});
