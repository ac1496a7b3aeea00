import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import type { GuardContext } from "../../core/guards/types.js";
import { nodeServices } from "../../core/services.js";
import {
  createStaleFileGuard,
  isInspectionCommand,
  isVerification,
  mutationTargets,
} from "../../tools/guards/index.js";
import { udiffTargets, v4aTargets } from "../../tools/guards/mutations.js";

describe("the mutation table", () => {
  it("maps each changing handler to its paths", () => {
    expect(mutationTargets("write", { path: "a.py", content: "" })).toEqual([{ path: "a.py", kind: "write" }]);
    expect(mutationTargets("edit", { path: "a.py" })).toEqual([{ path: "a.py", kind: "update" }]);
    expect(mutationTargets("notebook_edit", { path: "n.ipynb" })).toEqual([{ path: "n.ipynb", kind: "update" }]);
    expect(mutationTargets("structural_edit", { path: "s.ts" })).toEqual([{ path: "s.ts", kind: "update" }]);
    expect(mutationTargets("read", { path: "a.py" })).toBeUndefined();
    expect(mutationTargets("bash", { cmd: "rm -rf ." })).toBeUndefined();
  });

  it("reads V4A headers, moves included", () => {
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
    expect(v4aTargets(patch)).toEqual([
      { path: "new.py", kind: "create" },
      { path: "src/a.py", kind: "update" },
      { path: "src/b.py", kind: "create" },
      { path: "old.py", kind: "delete" },
    ]);
    expect(mutationTargets("apply_patch", { patch })).toHaveLength(4);
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
    expect(udiffTargets(patch)).toEqual([
      { path: "src/a.py", kind: "update" },
      { path: "new.txt", kind: "create" },
      { path: "gone.txt", kind: "delete" },
    ]);
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
  const ok = (modelText: string) => ({ ok: true, modelText });
  it("counts passing tests and commands that run something", () => {
    expect(isVerification({ handler: "run_tests", args: {} }, ok('<test_results status="passed" exit_code="0" runner="pytest">\n3 passed\n</test_results>'))).toBe(true);
    expect(isVerification({ handler: "run_tests", args: {} }, ok('<test_results status="failed" exit_code="1" runner="pytest">'))).toBe(false);
    expect(isVerification({ handler: "bash", args: { cmd: "npm test" } }, ok("ok"))).toBe(true);
    expect(isVerification({ handler: "shell", args: { command: "go test ./..." } }, ok("ok"))).toBe(true);
  });
  it("does not count reads, failures or background starts", () => {
    expect(isVerification({ handler: "bash", args: { cmd: "cat a.py" } }, ok("x"))).toBe(false);
    expect(isVerification({ handler: "bash", args: { cmd: "npm test" } }, { ok: false, modelText: "[exit code: 1]" })).toBe(false);
    expect(isVerification({ handler: "bash", args: { cmd: "npm test", background: true } }, ok("proc_id: 1"))).toBe(false);
    expect(isVerification({ handler: "edit", args: { path: "a" } }, ok("OK"))).toBe(false);
    const promoted = "(no output yet)\nStill running after 1m 30s: it continues as background job j1.";
    expect(isVerification({ handler: "shell", args: { command: "npm test" } }, ok(promoted))).toBe(false);
  });
});

describe("stale-file guard on patches", () => {
  it("needs a read of every updated or deleted file, not of added ones", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "yuj-guard-patch-"));
    writeFileSync(join(cwd, "a.py"), "a\n");
    writeFileSync(join(cwd, "old.py"), "old\n");
    const guard = createStaleFileGuard({ mode: "block", fs: nodeServices().fs });
    const ctx: GuardContext = { cwd, config: defaultConfig(), activeTools: new Set(["apply_patch", "read"]) };
    const patch = "*** Begin Patch\n*** Add File: new.py\n+x\n*** Update File: a.py\n@@\n-a\n+b\n*** Delete File: old.py\n*** End Patch";
    const call = { callId: "p1", tool: "apply_patch", handler: "apply_patch", args: { patch } };
    expect(await guard.before!(call, ctx)).toBe("ERROR: stale_file: read a.py, old.py first");
    await guard.after!({ callId: "r1", tool: "read", handler: "read", args: { path: "a.py" } }, { ok: true, modelText: "1: a" }, ctx);
    expect(await guard.before!(call, ctx)).toBe("ERROR: stale_file: read old.py first");
    await guard.after!({ callId: "r2", tool: "read", handler: "read", args: { path: "old.py" } }, { ok: true, modelText: "1: old" }, ctx);
    expect(await guard.before!(call, ctx)).toBeUndefined();

    const udiff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n";
    writeFileSync(join(cwd, "a.py"), "changed behind the model's back\n");
    expect(await guard.before!({ callId: "u1", tool: "udiff", handler: "udiff", args: { patch: udiff } }, ctx)).toBe(
      "ERROR: stale_file: read a.py first",
    );
  });
});
