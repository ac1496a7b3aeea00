// What "allow always" stores and offers: the exact rule, escaped, and the
// broader choices from exact to broad, each of which lets the call through.

import { mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alwaysRuleCandidates, asExactRule, exactAllowRule } from "../../core/permissions/always-rules.js";
import { createPermissionGate } from "../../core/permissions/gate.js";
import { createEmitter } from "../../core/events.js";
import type { ApprovalRequest } from "../../core/approvals/types.js";
import { action, bash, call, CHORD, decide, rule, shell, YUJ } from "./support.js";

const patterns = (rules: { pattern?: string }[]) => rules.map((r) => r.pattern);
const chordAsk = [rule("*", undefined, "allow"), rule("shell", "rm *", "ask")];

describe("alwaysRuleCandidates", () => {
  it("lists a simple command's rules from exact to broad", () => {
    expect(patterns(alwaysRuleCandidates(bash("rm -f build.log"), [], YUJ))).toEqual(["rm -f build.log", "rm -f *.log", "rm -f *", "rm *"]);
    expect(patterns(alwaysRuleCandidates(shell("git push origin main"), [rule("*", undefined, "allow"), rule("shell", "git push *", "ask")], CHORD))).toEqual([
      "git push origin main",
      "git push origin *",
      "git push *",
      "git *",
    ]);
  });

  it("escapes glob characters in the exact rule and in the words kept by broader ones", () => {
    const c = bash("rm -f *.log tmp?.txt");
    const got = patterns(alwaysRuleCandidates(c, [], YUJ));
    expect(got[0]).toBe("rm -f \\*.log tmp\\?.txt");
    expect(got).toContain("rm -f \\*.log *");
    // The exact rule allows the call it came from and nothing else.
    const exact = rule("bash", got[0]!, "allow");
    expect(action(c, [exact], YUJ)).toBe("allow");
    expect(action(bash("rm -f important.txt tmp1.txt"), [exact], YUJ)).toBe("ask");
    expect(action(bash("rm -f a.log tmpX.txt"), [exact], YUJ)).toBe("ask");
  });

  it("offers only the exact rule for a chain, or what cannot be judged, since no broader one covers it", () => {
    expect(patterns(alwaysRuleCandidates(shell("cd build && rm -f out.log"), chordAsk, CHORD))).toEqual(["cd build && rm -f out.log"]);
    expect(patterns(alwaysRuleCandidates(shell('eval "$X"'), chordAsk, CHORD))).toEqual(['eval "$X"']);
  });

  it("keeps only rules that really let the call through", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm *", "ask")];
    for (const r of alwaysRuleCandidates(shell("sudo rm -f x.log"), rules, CHORD)) {
      expect(action(shell("sudo rm -f x.log"), [...rules, r])).toBe("allow");
    }
    // `sudo *` alone would not do: the rm behind it still asks.
    expect(patterns(alwaysRuleCandidates(shell("sudo rm -f x.log"), rules, CHORD))).toEqual(["sudo rm -f x.log"]);
  });

  it("lists a path's rules from the file to its directories", () => {
    const rules = [rule("*", undefined, "allow"), rule("write", "src/*", "ask")];
    expect(patterns(alwaysRuleCandidates(call("write", { path: "src/a/b.ts", content: "" }), rules, CHORD))).toEqual([
      "src/a/b.ts",
      "src/a/*.ts",
      "src/a/*",
      "src/*",
    ]);
  });

  it("gives a tool without a match value the tool-wide rule", () => {
    expect(alwaysRuleCandidates(call("todo_write", { todos: [] }), [rule("todo_write", undefined, "ask")], CHORD)).toEqual([
      { tool: "todo_write", pattern: "*", action: "allow" },
    ]);
  });
});

describe("the rule the gate suggests", () => {
  it("is the exact, escaped value", () => {
    expect(exactAllowRule(bash("rm -f *.log"), decide(bash("rm -f *.log"), [], YUJ), YUJ.tools)).toEqual({ tool: "bash", pattern: "rm -f \\*.log", action: "allow" });
    expect(exactAllowRule(call("read", { path: "a*.txt" }), decide(call("read", { path: "a*.txt" }), [], CHORD), CHORD.tools).pattern).toBe("a\\*.txt");
  });

  it("names the file's real path when that is the name that asked", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-always-")));
    writeFileSync(join(cwd, "secret.txt"), "x");
    symlinkSync("secret.txt", join(cwd, "link.txt"));
    const requests: ApprovalRequest[] = [];
    const gate = createPermissionGate({
      cwd,
      rules: [rule("*", undefined, "allow"), rule("read", "secret.txt", "ask")],
      sessionRules: [],
      policy: CHORD,
      approver: { ask: async (r) => (requests.push(r), "pause") },
      emit: createEmitter("t", () => {}).emit,
    });
    await gate.check({ callId: "c", tool: "read", args: { path: "link.txt" } }, new AbortController().signal);
    expect(requests[0]!.suggestedRule).toEqual({ tool: "read", pattern: "secret.txt", action: "allow" });
  });

  it("is escaped when an older yuj recorded it as a bare glob", () => {
    expect(asExactRule({ tool: "bash", pattern: "rm -f *.log", action: "allow" }).pattern).toBe("rm -f \\*.log");
    expect(asExactRule({ tool: "bash", pattern: "rm -f \\*.log", action: "allow" }).pattern).toBe("rm -f \\*.log");
    expect(asExactRule({ tool: "todo_write", pattern: "*", action: "allow" }).pattern).toBe("*");
  });
});
