// Rules meet the programs a command runs, not its text: the decisions, form
// by form (the end-to-end test runs the runnable ones for real).

import { describe, expect, it } from "vitest";
import { invocationsOf } from "../../core/shell/invocations.js";
import { action, bash, call, decide, rule, shell, YUJ } from "./support.js";
import { formFor, RM_FORMS, RM_FORMS_NOT_RUN } from "./rm-forms.js";

const ALL_FORMS = [...RM_FORMS, ...RM_FORMS_NOT_RUN].map((f) => formFor(f, "victim"));
const chordDeny = [rule("*", undefined, "allow"), rule("shell", "rm *", "deny")];
const yujDeny = [rule("bash", "rm *", "deny")];

describe("a deny rule on rm meets every form of running rm", () => {
  it.each(ALL_FORMS)("%j", (cmd) => {
    expect(action(shell(cmd), chordDeny)).toBe("deny");
    expect(action(bash(cmd), yujDeny, YUJ)).toBe("deny");
    expect(action(bash(cmd), yujDeny, { ...YUJ, yolo: true })).toBe("deny");
  });

  it("has the sixty-odd forms the issue asks for", () => {
    expect(ALL_FORMS.length).toBeGreaterThanOrEqual(60);
  });
});

describe("commands that do not run rm stay allowed", () => {
  it.each([
    "ls -la",
    "git status",
    "echo rm x",
    "echo 'rm -rf /'",
    "grep -r 'rm ' .",
    "rmdir build",
    "npm test",
    "python3 script.py",
    "python3 -m pytest -q",
    "node build.js",
    "awk '{print $1}' f",
    "awk '$1 > 0 || $2 > 0' f",
    "find . -name '*.log'",
    "find . -name x -exec grep -l TODO {} +",
    "xargs grep TODO < files.txt",
    "bash run-tests.sh",
    "sh -c 'ls -la'",
    "env FOO=1 make test",
    "sudo apt-get install -y x",
    "timeout 60 npm test",
    "bash <<< 'echo hi'",
    "trap - EXIT",
    "cat a | sort | uniq -c",
    "for f in *.ts; do wc -l \"$f\"; done",
    "x=$(git rev-parse HEAD); echo $x",
  ])("%j", (cmd) => {
    expect(action(shell(cmd), chordDeny)).toBe("allow");
    expect(action(bash(cmd), yujDeny, YUJ)).toBe("allow");
  });
});

describe("what cannot be known from the text", () => {
  it("meets every deny and ask rule, and no specific allow", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "git push *", "ask")];
    expect(action(shell("eval \"$CMD\""), rules)).toBe("ask");
    expect(action(shell("$TOOL --flag"), rules)).toBe("ask");
    expect(action(shell("python3 -c 'print(1)'"), rules)).toBe("ask");
    // A specific allow, even one naming the command, does not vouch for it.
    const allowEval = [rule("*", undefined, "ask"), rule("shell", "eval *", "allow"), rule("shell", "python3 *", "allow")];
    expect(action(shell("eval rm x"), allowEval)).toBe("ask");
    expect(action(shell("python3 -c 'import os'"), allowEval)).toBe("ask");
    expect(action(shell("python3 x.py"), allowEval)).toBe("allow");
  });

  it("keeps the order of the rules: a later universal allow still wins", () => {
    expect(action(shell("eval rm x"), [rule("shell", "rm *", "deny"), rule("shell", "*", "allow")])).toBe("allow");
  });

  it("says why in the reason", () => {
    const d = decide(shell("x=rm; $x victim"), chordDeny);
    expect(d.reason).toBe(
      'denied by rule {tool="shell", pattern="rm *", action="deny"} (segment "$x victim": the program is computed at run time ($x), so every deny and ask rule meets it)',
    );
  });

  it("makes Yuj's built-in gate ask for shell-level unknowns, not for an interpreter's code", () => {
    expect(decide(bash("eval \"$X\""), [], YUJ)).toMatchObject({ action: "ask" });
    expect(decide(bash("eval \"$X\""), [], YUJ).reason).toContain("eval runs a string as a command");
    expect(action(bash("echo ls | sh"), [], YUJ)).toBe("ask");
    expect(action(bash("$(which rm) x"), [], YUJ)).toBe("ask");
    expect(action(bash("python3 -c 'print(1)'"), [], YUJ)).toBe("allow");
    expect(action(bash("\\rm x"), [], YUJ)).toBe("ask");
  });
});

describe("programs behind the text", () => {
  it("matches deny patterns against every value an argument may take", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm important.txt", "deny")];
    expect(action(shell("rm important.txt"), rules)).toBe("deny");
    expect(action(shell("rm imp*"), rules)).toBe("deny");
    expect(action(shell("rm $F"), rules)).toBe("deny");
    expect(action(shell("echo important.txt | xargs rm"), rules)).toBe("deny");
    expect(action(shell("find . -name important.txt -delete"), rules)).toBe("deny");
    expect(action(shell("rm other.txt"), rules)).toBe("allow");
    expect(action(shell("rm x*"), rules)).toBe("allow");
  });

  it("lets a specific allow of the program speak for it inside a chain, but never lift a deny elsewhere in it", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm *", "deny"), rule("shell", "rm -f *.log", "allow")];
    expect(action(shell("cd build && rm -f out.log"), rules)).toBe("allow");
    expect(action(shell("rm -f out.log; rm -rf /"), rules)).toBe("deny");
    expect(action(shell("sudo rm -f out.log"), rules)).toBe("allow");
  });

  it("never lets a later allow of a wrapper lift a deny on what it runs", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm *", "deny"), rule("shell", "find *", "allow"), rule("shell", "sudo *", "allow")];
    expect(action(shell("find . -name x -delete"), rules)).toBe("deny");
    expect(action(shell("find . -exec rm {} +"), rules)).toBe("deny");
    expect(action(shell("sudo rm x"), rules)).toBe("deny");
    expect(action(shell("sudo make install"), rules)).toBe("allow");
  });

  it("lets an exact allow (what approve --always stores) cover its whole command, chain and all", () => {
    const base = [rule("*", undefined, "allow"), rule("shell", "rm *", "ask")];
    const cmd = "cd build && rm -f out.log";
    expect(action(shell(cmd), base)).toBe("ask");
    expect(action(shell(cmd), [...base, rule("shell", cmd, "allow")])).toBe("allow");
    expect(action(shell(`${cmd}; rm -rf /`), [...base, rule("shell", cmd, "allow")])).toBe("ask");
    const chordOnly = [rule("shell", "eval \"$X\"", "allow")];
    expect(action(shell('eval "$X"'), chordOnly)).toBe("allow");
  });

  it("guards the Chord terminal and Yuj terminal input the same way", () => {
    expect(action(call("terminal_io", { terminal_id: "t", input: "\\rm x\n" }), [rule("terminal_io", "rm *", "deny")], YUJ)).toBe("deny");
  });
});

describe("invocationsOf", () => {
  const programs = (cmd: string) => invocationsOf(cmd).map((i) => (i.unresolved ? "?" : i.program));
  it.each<[string, Array<string | undefined>]>([
    ["sudo -u root env A=1 nice -n 5 rm x", ["sudo", "env", "nice", "rm"]],
    ["timeout -k 5 10s make", ["timeout", "make"]],
    ["command -v rm", ["command"]],
    ["xargs", ["xargs"]],
    ["find . -exec grep x {} \\; -delete", ["find", "grep", "rm"]],
    ["bash script.sh", ["bash"]],
    ["bash -s < /dev/stdin", ["bash", "?"]],
    ["bash < run.sh", ["bash"]],
    ["cat <<EOF | sh\nls\nEOF", ["cat", "sh", "?"]],
    ["sh <<EOF\n$CMD\nEOF", ["sh", "?"]],
    ["sh <<'EOF'\n$CMD\nEOF", ["sh", "?"]],
    ["sh <<'EOF'\nls\nEOF", ["sh", "ls"]],
    ["$HOME/bin/rm x", ["rm"]],
    ["~/bin/tool x", ["tool"]],
    ["ls 'unterminated", ["?"]],
    ["awk -f prog.awk data", ["awk"]],
    ["perl -Mstrict script.pl", ["perl"]],
    ["perl -lane 'print'", ["perl", "?"]],
  ])("%j runs %j", (cmd, expected) => {
    expect(programs(cmd)).toEqual(expected);
  });
});
