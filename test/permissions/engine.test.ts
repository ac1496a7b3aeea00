import { describe, expect, it } from "vitest";
import type { Rule } from "../../core/permissions/types.js";
import { action, bash, call, CHORD, decide, patch, rule, shell, YUJ } from "./support.js";

describe("rule order and globs", () => {
  it("lets the last matching rule win", () => {
    expect(action(shell("rm -rf x"), [rule("shell", "*", "allow"), rule("shell", "rm *", "deny")])).toBe("deny");
    expect(action(shell("rm -rf x"), [rule("shell", "rm *", "deny"), rule("shell", "*", "allow")])).toBe("allow");
    expect(action(shell("ls"), [rule("shell", "*", "allow"), rule("shell", "rm *", "deny")])).toBe("allow");
  });

  it("skips later rules that do not match and falls back to earlier ones", () => {
    const rules = [rule("*", undefined, "ask"), rule("shell", "git *", "allow"), rule("read", undefined, "deny")];
    expect(action(shell("git status"), rules)).toBe("allow");
    expect(action(shell("make"), rules)).toBe("ask");
    expect(action(call("read", { path: "a" }), rules)).toBe("deny");
    expect(action(call("write", { path: "a" }), rules)).toBe("ask");
  });

  it.each<[string, string, boolean]>([
    ["*", "shell", true],
    ["sh*", "shell", true],
    ["she?l", "shell", true],
    ["shel", "shell", false],
    ["SHELL", "shell", false],
    ["mcp_*", "mcp_search_web", true],
    ["job_*", "job_kill", true],
  ])("tool glob %j matches %s: %s", (tool, name, expected) => {
    expect(action(call(name, { command: "x" }), [rule(tool, undefined, "allow")])).toBe(expected ? "allow" : "deny");
  });

  it.each<[string | undefined, string, "allow" | "deny"]>([
    [undefined, "anything at all", "allow"],
    ["*", "anything at all", "allow"],
    ["ls", "ls", "allow"],
    ["ls", "ls -la", "deny"],
    ["ls *", "ls", "allow"],
    ["ls *", "ls -la", "allow"],
    ["ls *", "lsof", "deny"],
    ["l?", "ls", "allow"],
    ["l?", "lsx", "deny"],
    ["-la", "ls -la", "deny"],
    ["git * main", "git push origin main", "allow"],
    ["npm run * --watch", "npm run test -- --watch", "allow"],
  ])("pattern %j on shell %j → %s", (pattern, command, expected) => {
    expect(action(shell(command), [rule("shell", pattern, "allow")])).toBe(expected);
  });

  it("matches file paths with / and spaces, repository-relative", () => {
    const rules = [rule("read", "src/*", "allow"), rule("read", "src/secret */*", "deny")];
    expect(action(call("read", { path: "src/a/b.ts" }), rules)).toBe("allow");
    expect(action(call("read", { path: "/repo/src/a.ts" }), rules)).toBe("allow");
    expect(action(call("read", { path: "src/secret stuff/k.pem" }), rules)).toBe("deny");
    expect(action(call("read", { path: "src/../../etc/passwd" }), rules)).toBe("deny");
    expect(decide(call("read", { path: "src/../../etc/passwd" }), rules).matchValues).toEqual(["/etc/passwd"]);
    expect(action(call("read", { path: "/etc/passwd" }), [rule("read", "/etc/*", "deny"), rule("read", "*", "allow")])).toBe("allow");
    expect(action(call("read", { path: "/etc/passwd" }), [rule("read", "*", "allow"), rule("read", "/etc/*", "deny")])).toBe("deny");
  });

  it("ignores shell's workdir", () => {
    const c = call("shell", { command: "ls", workdir: "/etc" });
    expect(action(c, [rule("shell", "ls", "allow")])).toBe("allow");
    expect(decide(c, []).matchValues).toEqual(["ls"]);
  });
});

describe("reasons", () => {
  it("names the rule and its source", () => {
    const d = decide(bash("rm -rf x"), [rule("bash", "rm *", "deny", "/x/.yuj/config.toml")], YUJ);
    expect(d.reason).toBe('denied by rule {tool="bash", pattern="rm *", action="deny"} from /x/.yuj/config.toml');
    expect(d.rule).toMatchObject({ tool: "bash", pattern: "rm *", action: "deny" });
    expect(d.matchValues).toEqual(["rm -rf x"]);
  });

  it("words allow and ask, and leaves out an absent pattern and source", () => {
    expect(decide(shell("ls"), [rule("shell", undefined, "allow")]).reason).toBe('allowed by rule {tool="shell", action="allow"}');
    expect(decide(shell("ls"), [rule("*", "*", "ask", "profile chord")]).reason).toBe(
      'approval required by rule {tool="*", pattern="*", action="ask"} from profile chord',
    );
  });

  it("explains the defaults", () => {
    expect(decide(shell("ls"), []).reason).toBe('no rule matches shell "ls" (chord default: deny)');
    expect(decide(call("todo_write"), []).reason).toBe("no rule matches todo_write (chord default: deny)");
    expect(decide(bash("ls"), [], YUJ).reason).toBe('no rule matches bash "ls" (yuj default: allow)');
  });

  it("names the path that decided a multi-path call", () => {
    const d = decide(patch("*** Add File: a.txt", "+x", "*** Delete File: b.txt"), [
      rule("*", undefined, "allow"),
      rule("apply_patch", "b.*", "deny"),
    ]);
    expect(d.action).toBe("deny");
    expect(d.reason).toContain('(apply_patch "b.txt")');
    expect(d.matchValues).toEqual(["a.txt", "b.txt"]);
  });
});

describe("compound shell guard", () => {
  const lsOnly: Rule[] = [rule("shell", "ls *", "allow")];

  it.each([
    "ls; rm -rf /",
    "ls && rm -rf /",
    "ls || rm -rf /",
    "ls | sh",
    "ls & rm -rf /",
    "ls\nrm -rf /",
    "ls $(rm -rf /)",
    "ls `rm -rf /`",
    "ls <(rm -rf /)",
    'ls "$(rm -rf /)"',
    "ls 'unterminated",
  ])("ls * does not cover %j", (command) => {
    expect(action(shell(command), lsOnly)).toBe("deny");
  });

  it.each(["ls", "ls -la", "ls 'a;b'", 'ls "x && y"', "ls a\\;b", "ls '$(rm x)'", "ls # ; rm x", "ls > out.txt", "FOO=1 ls"])(
    "ls * covers %j (quoted separators, comments, redirections and assignments are fine)",
    (command) => {
      // `FOO=1 ls` does not match `ls *` at all: assignments are part of the value.
      expect(action(shell(command), lsOnly)).toBe(command.startsWith("FOO") ? "deny" : "allow");
    },
  );

  it("falls through a skipped allow to the next earlier matching rule", () => {
    const rules = [rule("shell", "*", "ask"), rule("shell", "ls *", "allow")];
    expect(action(shell("ls; rm -rf /"), rules)).toBe("ask");
    expect(action(shell("ls"), rules)).toBe("allow");
  });

  it("lets a universal pattern still cover compounds", () => {
    expect(action(shell("ls; rm -rf /"), [rule("shell", "*", "allow")])).toBe("allow");
    expect(action(shell("ls; rm -rf /"), [rule("shell", undefined, "allow")])).toBe("allow");
    expect(action(shell("ls; rm -rf /"), [rule("*", undefined, "allow")])).toBe("allow");
  });

  it("guards bash and terminal commands the same way", () => {
    expect(action(bash("ls; rm -rf /"), [rule("bash", "ls *", "allow")], YUJ)).toBe("ask");
    expect(action(call("terminal_start", { cmd: "ls; rm x" }), [rule("*", "ls *", "allow")], CHORD)).toBe("deny");
  });

  it("lets ask and deny rules match one segment of a compound command", () => {
    const rules = [rule("shell", "*", "allow"), rule("shell", "rm *", "deny")];
    const d = decide(shell("cd build && rm -rf out"), rules);
    expect(d.action).toBe("deny");
    expect(d.reason).toContain('(segment "rm -rf out")');
    expect(action(shell("ls | xargs echo; echo $(rm x)"), rules)).toBe("deny");
    expect(action(shell("echo 'rm x'; ls"), rules)).toBe("allow");
    expect(action(shell("echo rm x; ls"), rules)).toBe("allow");
    expect(action(shell("ls | xargs rm -f"), rules)).toBe("deny"); // the command behind the wrapper
    expect(action(shell("ls; sudo rm x"), rules)).toBe("deny");
  });

  it("keeps last-match-wins order with segment matches", () => {
    const rules = [rule("shell", "rm *", "deny"), rule("shell", "*", "allow")];
    expect(action(shell("ls; rm -rf x"), rules)).toBe("allow");
  });
});

describe("edit family coupling", () => {
  const upd = (p: string) => patch(`*** Update File: ${p}`, "@@", "-a", "+b");
  const editCall = (p: string) => call("edit", { path: p, old_string: "a", new_string: "b" });

  it("applies edit rules to apply_patch when apply_patch has none", () => {
    expect(action(upd("a.ts"), [rule("edit", undefined, "allow")])).toBe("allow");
    expect(action(upd("a.ts"), [rule("*", undefined, "allow"), rule("edit", undefined, "deny")])).toBe("deny");
    expect(action(upd("src/a.ts"), [rule("*", undefined, "allow"), rule("edit", "src/*", "ask")])).toBe("ask");
    expect(action(upd("docs/a.md"), [rule("*", undefined, "allow"), rule("edit", "src/*", "ask")])).toBe("allow");
  });

  it("applies apply_patch rules to edit when edit has none", () => {
    expect(action(editCall("a.ts"), [rule("apply_patch", undefined, "allow")])).toBe("allow");
    expect(action(editCall("a.ts"), [rule("*", undefined, "allow"), rule("apply_patch", undefined, "deny")])).toBe("deny");
    expect(action(editCall("a.ts"), [rule("*", undefined, "allow"), rule("patch", undefined, "deny")])).toBe("deny");
  });

  it("stops coupling once the tool has a rule of its own", () => {
    const rules = [rule("*", undefined, "allow"), rule("apply_patch", undefined, "deny"), rule("edit", undefined, "allow")];
    expect(action(editCall("a.ts"), rules)).toBe("allow");
    expect(action(upd("a.ts"), rules)).toBe("deny");
    const own = [rule("apply_patch", "src/*", "allow"), rule("edit", undefined, "deny")];
    expect(action(upd("src/a.ts"), own)).toBe("allow");
    expect(action(upd("lib/a.ts"), own)).toBe("deny"); // no apply_patch rule matches: chord default
  });

  it("treats `patch` as the legacy name of apply_patch", () => {
    expect(action(upd("a.ts"), [rule("*", undefined, "allow"), rule("patch", undefined, "deny")])).toBe("deny");
  });
});

describe("apply_patch paths", () => {
  // The paths come from the parser that applies the patch: every patch here is one it would apply.
  const base = [rule("*", undefined, "allow")];

  it("checks every path and keeps the strictest (deny > ask > allow)", () => {
    const rules = [...base, rule("apply_patch", "docs/*", "ask"), rule("apply_patch", "secret/*", "deny")];
    expect(action(patch("*** Update File: a.ts", "@@", "-a", "+b", "*** Update File: docs/x.md", "@@", "-a", "+b"), rules)).toBe("ask");
    expect(action(patch("*** Update File: docs/x.md", "@@", "-a", "+b", "*** Add File: secret/k", "+x"), rules)).toBe("deny");
    expect(action(patch("*** Update File: a.ts", "@@", "-a", "+b", "*** Update File: b.ts", "@@", "-a", "+b"), rules)).toBe("allow");
    expect(action(patch("*** Update File: x", "*** Move to: secret/x", "@@", "-a", "+b"), rules)).toBe("deny");
  });

  it("checks Add paths against explicit write rules too", () => {
    const rules = [...base, rule("write", "gen/*", "deny")];
    expect(action(patch("*** Add File: gen/a.ts", "+x"), rules)).toBe("deny");
    expect(action(patch("*** Update File: gen/a.ts", "@@", "-a", "+b"), rules)).toBe("allow");
    expect(action(patch("*** Add File: src/a.ts", "+x"), rules)).toBe("allow");
    expect(decide(patch("*** Add File: gen/a.ts", "+x"), rules).reason).toBe(
      'denied by rule {tool="write", pattern="gen/*", action="deny"} (added file "gen/a.ts")',
    );
  });

  it("keeps the stricter of the two: a write allow does not lift an apply_patch ask", () => {
    const rules = [rule("apply_patch", undefined, "ask"), rule("write", undefined, "allow")];
    expect(action(patch("*** Add File: a.ts", "+x"), rules)).toBe("ask");
  });

  it("ignores wildcard rules for the write/delete coupling", () => {
    const rules = [rule("apply_patch", undefined, "allow"), rule("*", "gen/*", "deny")];
    expect(action(patch("*** Add File: gen/a.ts", "+x"), rules)).toBe("deny"); // the wildcard matches apply_patch itself
    const rules2 = [rule("w*", "gen/*", "deny"), rule("apply_patch", undefined, "allow")];
    expect(action(patch("*** Add File: gen/a.ts", "+x"), rules2)).toBe("allow");
  });

  it("checks Delete paths and Move sources against explicit delete rules", () => {
    const rules = [...base, rule("delete", undefined, "ask")];
    expect(action(patch("*** Delete File: old.ts"), rules)).toBe("ask");
    expect(action(patch("*** Update File: a.ts", "*** Move to: b.ts", "@@", "-a", "+b"), rules)).toBe("ask");
    expect(action(patch("*** Update File: a.ts", "@@", "-a", "+b"), rules)).toBe("allow");
    expect(action(patch("*** Add File: n.ts", "+x"), rules)).toBe("allow");
    const denyOld = [...base, rule("delete", "old/*", "deny")];
    expect(action(patch("*** Update File: old/a.ts", "*** Move to: new/a.ts", "@@", "-a", "+b"), denyOld)).toBe("deny");
    expect(action(patch("*** Update File: new/a.ts", "*** Move to: old/a.ts", "@@", "-a", "+b"), denyOld)).toBe("allow");
  });

  it("checks the udiff paths the same way", () => {
    const diff = "--- /dev/null\n+++ b/gen/x.ts\n@@ -0,0 +1 @@\n+x\n";
    const u = call("udiff", { patch: diff });
    expect(action(u, [rule("*", undefined, "allow"), rule("write", "gen/*", "deny")], YUJ)).toBe("deny");
    expect(action(u, [rule("*", undefined, "allow"), rule("edit", "gen/*", "ask")], YUJ)).toBe("ask");
  });

  it("checks delete against every path", () => {
    const rules = [rule("delete", "*", "allow"), rule("delete", "*.lock", "deny")];
    expect(action(call("delete", { paths: ["a.txt", "b.txt"], reason: "x" }), rules)).toBe("allow");
    expect(action(call("delete", { paths: ["a.txt", "yarn.lock"], reason: "x" }), rules)).toBe("deny");
  });
});

describe("other match values", () => {
  it("matches grep by pattern on Chord and by path on Yuj", () => {
    expect(action(call("grep", { pattern: "password" }), [rule("grep", "*", "allow"), rule("grep", "pass*", "deny")])).toBe("deny");
    expect(action(call("grep", { pattern: "x", path: "secrets" }), [rule("grep", "secrets*", "deny")], YUJ)).toBe("deny");
    expect(action(call("grep", { pattern: "secrets" }), [rule("grep", "secrets*", "deny")], YUJ)).toBe("allow");
  });

  it("matches glob by its first pattern", () => {
    expect(action(call("glob", { patterns: ["**/*.ts", "x"] }), [rule("glob", "**/*", "allow")])).toBe("allow");
  });
});
