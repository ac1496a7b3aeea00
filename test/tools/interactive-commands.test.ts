// Programs that need a person at a terminal are refused by both command
// tools before anything runs, with what to do instead. The table holds
// the cases the detector must refuse and the look-alikes it must let
// through; the tool tests run real commands (and check that a refused one
// started no process at all).

import { describe, expect, it, afterEach, beforeEach } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { shellTool } from "../../tools/chord/shell.js";
import { interactiveCommand } from "../../tools/lib/shell-rules.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

describe("interactiveCommand", () => {
  it.each([
    "git status",
    "git commit -m 'msg'",
    "git commit --message=msg --allow-empty",
    "git commit -F msg.txt",
    "git commit --file msg.txt",
    "git commit --amend --no-edit",
    "git commit --amend -C HEAD",
    "git commit --amend -CHEAD",
    "git commit -am 'all'",
    "git commit --amend --reuse-message=HEAD",
    "git -C repo commit -m 'msg'",
    "git -c user.name=test commit -m 'msg'",
    "git --no-pager commit -m 'msg'",
    "git stash push -m 'save'",
    "git rebase --continue",
    "GIT_SEQUENCE_EDITOR=true git rebase -i HEAD~2",
    "docker --context remote exec container true",
    "docker exec container command -t arg",
    "docker --context=remote run --rm alpine true",
    "docker run alpine command -t arg",
    "docker run --name test alpine command -t arg",
    "podman --connection remote run alpine true",
    "kubectl --context prod exec pod -- true",
    "echo data > less",
    "printf data | cat > vim",
    "npm init -y",
    "npm init --yes",
    // They read end of input and stop at once, as Chord's own tests let them run.
    "npm init",
    "pnpm init",
    "yarn init",
    "bun init",
    "select x in a b; do echo $x; done",
    "sudo -n make install",
    "go test ./...",
    "printf 'y\\n' | some-command",
    "echo '/dev/tty'",
    "ssh host uname -a",
    "ssh -o BatchMode=yes -p 22 host 'ls'",
    "python3 -c 'print(1)'",
    "python3 script.py",
    "python -m pytest -q",
    "echo 'print(1)' | python3",
    "python3 < script.py",
    "node -e 'console.log(1)'",
    "node server.js",
    "node --version",
    "top -b -n 1",
    "emacs --batch -l x.el",
    "sqlite3 db.sqlite 'select 1'",
    "read x < input.txt",
  ])("lets %s through", (cmd) => {
    expect(interactiveCommand(cmd)).toBeUndefined();
  });

  it.each<[string, string]>([
    ["vim file", "interactive terminal UI"],
    ["less README.md", "interactive terminal UI"],
    ["man git", "interactive terminal UI"],
    ["top", "interactive terminal UI"],
    ["PATH=/tmp vim file", "interactive terminal UI"],
    ["cd src && nano main.c", "interactive terminal UI"],
    ["git log | less", "interactive terminal UI"],
    ["git commit", "without an explicit message"],
    ["git commit --amend", "without an explicit message"],
    ["git commit --amend -c HEAD", "without an explicit message"],
    ["git commit --amend --reedit-message HEAD", "without an explicit message"],
    ["git -C repo commit", "without an explicit message"],
    ["git commit -p -m 'msg'", "interactive patch"],
    ["git commit --patch --message=msg", "interactive patch"],
    ["git rebase -i HEAD~2", "requires an editor"],
    ["git rebase --interactive main", "requires an editor"],
    ["git add -p", "interactive patch"],
    ["git add -i", "is interactive"],
    ["git checkout --patch file", "interactive patch"],
    ["git restore -p file", "interactive patch"],
    ["git reset -p", "interactive patch"],
    ["git stash -p", "interactive patch"],
    ["git clean -i", "is interactive"],
    ["git difftool", "launches an interactive tool"],
    ["git mergetool", "launches an interactive tool"],
    ["sudo make install", "may prompt for a password"],
    ["ssh example.com", "starts an interactive login session"],
    ["ssh -i key.pem user@example.com", "starts an interactive login session"],
    ["ssh -t host top", "allocates a TTY"],
    ["telnet example.com 23", "may require login"],
    ["gh auth login", "authentication wizard"],
    ["gcloud auth login", "authentication wizard"],
    ["az login", "authentication wizard"],
    ["aws configure", "prompts for credentials"],
    ["cargo login", "may prompt"],
    ["read -p 'continue?' x", "waits for user input"],
    ["cat </dev/tty", "direct /dev/tty redirection"],
    ["cat 2>/dev/tty", "direct /dev/tty redirection"],
    ["echo x 1>/dev/tty", "direct /dev/tty redirection"],
    ["stty -echo", "requires a terminal"],
    ["docker --context remote exec -it container sh", "allocates a TTY"],
    ["docker --tlsverify exec -it container sh", "allocates a TTY"],
    ["docker run --tty alpine sh", "allocates a TTY"],
    ["docker login", "may prompt for credentials"],
    ["podman --connection remote run -t alpine sh", "allocates a TTY"],
    ["kubectl --context prod exec -it pod -- sh", "allocates a TTY"],
    ["kubectl attach --tty pod", "allocates a TTY"],
    ["python", "interactive session (REPL)"],
    ["python3", "interactive session (REPL)"],
    ["python3 -i script.py", "interactive session (REPL)"],
    ["node", "interactive session (REPL)"],
    ["node -i", "interactive session (REPL)"],
    ["make build && python3", "interactive session (REPL)"],
  ])("refuses %s (%s)", (cmd, why) => {
    const found = interactiveCommand(cmd);
    expect(found?.reason).toContain(why);
    expect(found?.hint).toMatch(/\S/);
  });
});

describe("both command tools refuse an interactive program before running it", () => {
  let t: TestToolContext;
  beforeEach(async () => {
    t = await makeToolContext();
  });
  afterEach(async () => {
    await t.cleanup();
  });
  const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
  const started = () => t.events.filter((e) => e.type === "job_started").length;

  it("Yuj bash names the non-interactive form, and runs nothing", async () => {
    const r = await call(bashTool, { cmd: "touch ran.txt; git rebase -i HEAD~2" });
    expect(r).toEqual({
      ok: false,
      modelText:
        "ERROR: interactive command rejected: `git rebase -i` requires an editor. Use a non-interactive form: `git rebase <base>`, " +
        'or set GIT_SEQUENCE_EDITOR to a command that edits the todo list (GIT_SEQUENCE_EDITOR="sed -i ..." git rebase -i ...).',
    });
    expect(started()).toBe(0);
    await expect(import("node:fs/promises").then((f) => f.access(`${t.cwd}/ran.txt`))).rejects.toThrow();
  });

  it("Yuj bash names terminal_start when the interactive terminal is on", async () => {
    t.ctx.activeTools = new Set([...(t.ctx.activeTools ?? []), "terminal_start", "terminal_io"]);
    const r = await call(bashTool, { cmd: "python3" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe(
      "ERROR: interactive command rejected: `python3` without a script starts an interactive session (REPL) that waits for input. " +
        "Start it with terminal_start instead (the session's interactive terminal), or: Run the code non-interactively: `python3 -c '...'` or a script file.",
    );
    expect(started()).toBe(0);
  });

  it("Chord shell refuses a pager and still runs the non-interactive form", async () => {
    await t.put({ "notes.txt": "one\n" });
    const r = await call(shellTool, { command: "less notes.txt" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: interactive command rejected: `less` requires an interactive terminal UI\. Use a non-interactive form/);
    expect(started()).toBe(0);
    const plain = await call(shellTool, { command: "cat notes.txt" });
    expect(plain).toMatchObject({ ok: true, modelText: "one\n[status: completed (exit code 0)]" });
  });

  it("Chord shell refuses ssh without a remote command", async () => {
    const r = await call(shellTool, { command: "ssh example.invalid" });
    expect(r.modelText).toContain("`ssh` without a remote command may require login (it starts an interactive login session)");
    expect(started()).toBe(0);
  });
});
