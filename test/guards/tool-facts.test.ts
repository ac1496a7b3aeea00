// What the tools say of their calls — the paths they touch, whether a call
// only looks, whether it checked the work — as the guards read it, asked of
// the real handlers.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import type { GuardContext } from "../../core/guards/types.js";
import { nodeServices } from "../../core/services.js";
import { guardCallOf } from "../../core/tool-facts.js";
import type { ToolHandler, ToolResult } from "../../core/tool-types.js";
import { createStaleFileGuard } from "../../tools/guards/index.js";
import { isInspectionCommand } from "../../tools/lib/shell-inspection.js";
import { builtinHandlers } from "../../tools/registry.js";

const handlers = builtinHandlers();
const of = (id: string): ToolHandler => handlers.get(id)!;
let seq = 0;
const callOf = (id: string, args: Record<string, unknown>, name = id) => guardCallOf(of(id), `c${++seq}`, args, { cwd: "/repo", name });
const touches = (id: string, args: Record<string, unknown>) => callOf(id, args).touches;

describe("the paths a call touches", () => {
  it("is what each file tool says it reads or changes", () => {
    expect(touches("write", { path: "a.py", content: "" })).toEqual([{ path: "a.py", as: "writes" }]);
    expect(touches("edit", { path: "a.py", old_str: "a", new_str: "b" })).toEqual([{ path: "a.py", as: "updates" }]);
    expect(touches("notebook_edit", { path: "n.ipynb", old_source: "", new_source: "" })).toEqual([{ path: "n.ipynb", as: "updates" }]);
    expect(touches("read", { path: "a.py" })).toEqual([{ path: "a.py", as: "reads" }]);
    expect(touches("chord_delete", { paths: ["a", "b"], reason: "x" })).toEqual([
      { path: "a", as: "deletes" },
      { path: "b", as: "deletes" },
    ]);
  });

  it("is nothing a command changes (its text cannot say), and the file a simple read shows", () => {
    expect(touches("bash", { cmd: "rm -rf ." })).toEqual([]);
    expect(touches("bash", { cmd: "cat a.py" })).toEqual([{ path: "a.py", as: "reads" }]);
    expect(touches("bash", { cmd: "cat a.py", background: true })).toEqual([]);
    expect(touches("shell", { command: "sed -n 1,5p a.py", workdir: "sub" })).toEqual([{ path: "sub/a.py", as: "reads" }]);
  });

  it("reads V4A headers with the patch's own parser, moves included", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: new.py",
      "+x = 1",
      "*** Update File: src/a.py",
      "*** Move to: src/b.py",
      "@@ def f():",
      "-    return 1",
      "+    return 2",
      "*** Delete File: old.py",
      "*** End Patch",
    ].join("\n");
    expect(touches("chord_apply_patch", { patch })).toEqual([
      { path: "new.py", as: "creates" },
      { path: "src/a.py", as: "updates", move: "from" },
      { path: "src/b.py", as: "creates", move: "to" },
      { path: "old.py", as: "deletes" },
    ]);
    // Yuj's apply_patch reads the same envelope, moves included.
    expect(touches("apply_patch", { patch })).toEqual(touches("chord_apply_patch", { patch }));
  });

  it("reads unified diff headers, git prefixes, /dev/null and timestamps", () => {
    const patch = [
      "--- a/src/a.py\t2024-01-01 00:00:00",
      "+++ b/src/a.py\t2024-01-01 00:00:01",
      "@@ -1,3 +1,3 @@",
      "--- a removed line that starts with two dashes",
      " context",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1 @@",
      "+hello",
      "--- gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
    ].join("\n");
    expect(touches("udiff", { patch })).toEqual([
      { path: "src/a.py", as: "updates" },
      { path: "new.txt", as: "creates" },
      { path: "gone.txt", as: "deletes" },
    ]);
  });
});

describe("a call's effects", () => {
  it("narrow a command tool to inspection for a command that only looks", () => {
    expect([...callOf("bash", { cmd: "ls -la" }).effects]).toEqual(["inspect"]);
    expect([...callOf("bash", { cmd: "rm -rf x" }).effects]).toEqual(["execute"]);
    expect([...callOf("read", { path: "a" }).effects]).toEqual(["inspect"]);
    expect([...callOf("edit", { path: "a", old_str: "a", new_str: "b" }).effects]).toEqual(["mutate"]);
  });
});

describe("inspection commands", () => {
  it.each([
    "cat a.txt", "head -n 5 a.txt", "tail -f log.txt", "ls -la src", "find . -name '*.py' -type f",
    "grep -rn foo . 2>/dev/null", "rg -n foo src", "wc -l a.txt b.txt", "git status", "git log --oneline -5",
    "git --no-pager diff HEAD~1", "git show HEAD:src/a.py", "cat a.txt | grep x | sort | uniq -c", "ls && pwd",
    "sed -n '1,20p' a.txt", "echo hello",
  ])("%s only looks", (cmd) => expect(isInspectionCommand(cmd)).toBe(true));

  it.each([
    "rm a.txt", "touch a", "echo x > a.txt", "cat a >> b", "find . -delete", "find . -exec rm {} +", "rg --pre ./x foo",
    "sort -o out.txt in.txt", "uniq in.txt out.txt", "git commit -m x", "git -c core.pager=sh log", "git diff --output=x",
    "python3 -m pytest", "npm test", "cat $(ls)", "FOO=1 ls", "for f in *; do cat $f; done", "sed -i s/a/b/ a.txt",
    "xargs rm", "ls |", "", "sudo cat /etc/shadow", "cat <(rm x)", "tree -o out.txt", "awk '{print > \"x\"}' a",
  ])("%s is not inspection", (cmd) => expect(isInspectionCommand(cmd)).toBe(false));
});

describe("verification", () => {
  const ok = (modelText: string): ToolResult => ({ ok: true, modelText });
  const verifies = (id: string, args: Record<string, unknown>, result: ToolResult) => callOf(id, args).verifies(result);
  it("counts commands that run something", () => {
    expect(verifies("bash", { cmd: "npm test" }, ok("ok"))).toBe(true);
    expect(verifies("shell", { command: "go test ./..." }, ok("ok"))).toBe(true);
  });
  it("does not count reads, failures, background starts or other tools", () => {
    expect(verifies("bash", { cmd: "cat a.py" }, ok("x"))).toBe(false);
    expect(verifies("bash", { cmd: "npm test" }, { ok: false, modelText: "[exit code: 1]" })).toBe(false);
    expect(verifies("bash", { cmd: "npm test", background: true }, ok("proc_id: 1"))).toBe(false);
    expect(verifies("edit", { path: "a", old_str: "a", new_str: "b" }, ok("OK"))).toBe(false);
    const promoted = "(no output yet)\nStill running after 1m 30s: it continues as background job j1.";
    expect(verifies("shell", { command: "npm test" }, ok(promoted))).toBe(false);
  });
});

describe("stale-file guard on patches", () => {
  it("needs a read of every updated or deleted file, not of added ones", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "yuj-guard-patch-"));
    writeFileSync(join(cwd, "a.py"), "a\n");
    writeFileSync(join(cwd, "old.py"), "old\n");
    const guard = createStaleFileGuard({ mode: "block", fs: nodeServices().fs });
    const ctx: GuardContext = { cwd, config: defaultConfig(), activeTools: new Set(["apply_patch", "read"]), handlers: new Map() };
    const patch = "*** Begin Patch\n*** Add File: new.py\n+x\n*** Update File: a.py\n@@\n-a\n+b\n*** Delete File: old.py\n*** End Patch";
    const call = callOf("apply_patch", { patch });
    expect(await guard.before!(call, ctx)).toBe("ERROR: stale_file: read a.py, old.py first");
    await guard.after!(callOf("read", { path: "a.py" }), { ok: true, modelText: "1: a" }, ctx);
    expect(await guard.before!(call, ctx)).toBe("ERROR: stale_file: read old.py first");
    await guard.after!(callOf("read", { path: "old.py" }), { ok: true, modelText: "1: old" }, ctx);
    expect(await guard.before!(call, ctx)).toBeUndefined();

    const udiff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n";
    writeFileSync(join(cwd, "a.py"), "changed behind the model's back\n");
    expect(await guard.before!(callOf("udiff", { patch: udiff }), ctx)).toBe("ERROR: stale_file: read a.py first");
  });
});
