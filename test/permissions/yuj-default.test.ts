// Yuj's normal behaviour when no rule matches: allow, except the approval gate.

import { describe, expect, it } from "vitest";
import { approvalGateReason } from "../../core/permissions/yuj-default.js";
import { action, bash, call, decide, rule, YUJ } from "./support.js";

describe("Yuj approval gate", () => {
  it.each<[string, string | undefined]>([
    ["ls", undefined],
    ["rm -rf build", "destructive file deletion via rm"],
    ["rm", "destructive file deletion via rm"],
    ["/bin/rm x", "destructive file deletion via rm"],
    ["sudo rm -rf /", "destructive file deletion via rm"],
    ["env A=1 nice -n 5 rm x", "destructive file deletion via rm"],
    ["find . -name '*.o' | xargs rm", "destructive file deletion via rm"],
    ["find . -name '*.o' -exec rm {} +", "destructive file deletion via rm"],
    ["bash -c 'cd x && rm -rf y'", "destructive file deletion via rm"],
    ["echo $(rm x)", "destructive file deletion via rm"],
    ["make && rm -rf dist", "destructive file deletion via rm"],
    ["ls\nrm x", "destructive file deletion via rm"],
    ["echo rm", undefined],
    ["echo 'rm -rf /'", undefined],
    ["grep -r rm .", undefined],
    ["git reset --hard", "discarding uncommitted changes via git reset --hard"],
    ["git reset --hard HEAD~1", "discarding uncommitted changes via git reset --hard"],
    ["git -C sub reset --hard", "discarding uncommitted changes via git reset --hard"],
    ["git reset --soft HEAD~1", undefined],
    ["git reset HEAD a.ts", undefined],
    ["git clean -fdx", "deleting untracked files via git clean"],
    ["git checkout -- a.ts", "discarding file changes via git checkout --"],
    ["git checkout main", undefined],
    ["git checkout -b topic", undefined],
    ["git status", undefined],
    ["chmod +x run.sh", "permission change via chmod"],
    ["chown me a.txt", "ownership change via chown"],
    ["cp a b", undefined],
    ["cp -r src/ build/src", undefined],
    ["cp a /etc/x", "copy outside the repository via cp: /etc/x"],
    ["cp /etc/hosts hosts", "copy outside the repository via cp: /etc/hosts"],
    ["cp a ../b", "copy outside the repository via cp: ../b"],
    ["cp a ~/b", "copy outside the repository via cp: ~/b"],
    ["cp a $HOME/b", "copy outside the repository via cp: $HOME/b"],
    ["cp -t /tmp a b", "copy outside the repository via cp: /tmp"],
    ["cp --target-directory=/tmp a", "copy outside the repository via cp: /tmp"],
    ["cp /repo/a /repo/b", undefined],
    ["mv a b", undefined],
    ["mv a /tmp/a", "move outside the repository via mv: /tmp/a"],
    ["mv -- -weird ../x", "move outside the repository via mv: ../x"],
  ])("%j → %s", (cmd, reason) => {
    expect(approvalGateReason(cmd, "/repo")).toBe(reason);
  });

  it("asks with the gate's reason when no rule matches", () => {
    const d = decide(bash("rm -rf build"), [], YUJ);
    expect(d.action).toBe("ask");
    expect(d.reason).toBe('destructive file deletion via rm (Yuj approval gate: no rule matches bash "rm -rf build")');
    expect(d.rule).toBeUndefined();
    expect(action(bash("git reset --hard"), [], YUJ)).toBe("ask");
    expect(action(bash("cp a /etc/x"), [], YUJ)).toBe("ask");
    expect(action(bash("ls"), [], YUJ)).toBe("allow");
  });

  it("covers terminal commands and terminal input", () => {
    expect(action(call("terminal_start", { cmd: "rm -i x" }), [], YUJ)).toBe("ask");
    expect(action(call("terminal_io", { terminal_id: "t", input: "rm x" }), [], YUJ)).toBe("ask");
    expect(action(call("terminal_io", { terminal_id: "t" }), [], YUJ)).toBe("allow");
  });

  it("lets every other tool run", () => {
    for (const tool of ["read", "write", "edit", "glob", "grep", "done", "apply_patch"]) {
      expect(action(call(tool, { path: "rm -rf x" }), [], YUJ)).toBe("allow");
    }
  });

  it("gives way to a matching rule", () => {
    expect(action(bash("rm -rf build"), [rule("bash", "rm -rf build", "allow")], YUJ)).toBe("allow");
    expect(action(bash("ls"), [rule("bash", "ls", "deny")], YUJ)).toBe("deny");
    expect(action(bash("rm -rf build"), [rule("bash", "ls *", "allow")], YUJ)).toBe("ask");
  });

  it("still sees the rm behind an allow that a compound command cannot use", () => {
    expect(action(bash("ls; rm -rf /"), [rule("bash", "ls *", "allow")], YUJ)).toBe("ask");
    expect(action(bash("ls; echo hi"), [rule("bash", "ls *", "allow")], YUJ)).toBe("allow");
  });
});
