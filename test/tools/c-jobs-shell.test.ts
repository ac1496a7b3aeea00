// Chord shell behaviour its own newer tests pin, on the Chord surface through
// the real dispatcher and profile with real processes: what runs although it
// looks interactive (it reads end of input and stops at once), the deadline a
// foreground command keeps when nothing could hand it to a job, and
// durations under a second.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatElapsed } from "../../tools/lib/job-format.js";
import { interactiveCommand } from "../../tools/lib/shell-rules.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);

describe("chord shell: commands that only look interactive run", () => {
  it.each(["npm init", "pnpm init", "yarn init", "bun init", "select x in a b; do echo $x; done", "read -r x", "cargo login token-from-file"])(
    "%s is not refused",
    (cmd) => expect(interactiveCommand(cmd)).toBeUndefined(),
  );

  it("select reads end of input and ends: its menu and exit status come back", async () => {
    const r = await call("shell", { command: "select x in a b; do echo $x; done; echo after" });
    expect(r.text).toBe("1) a\n2) b\n#? \nafter\n[status: completed (exit code 0)]");
  });

  it("the refusals that stay keep Chord's reasons, each with a hint", () => {
    for (const [cmd, why] of [
      ["git commit --fixup=amend:HEAD", "without an explicit message"],
      ["git commit --fixup reword:HEAD", "without an explicit message"],
      ["git commit --squash=HEAD", "without an explicit message"],
      ["git checkout -p", "interactive patch workflow"],
      ["ssh -tt example.com true", "allocates a TTY"],
      ["tput cols", "requires a terminal"],
      ["watch date", "interactive terminal UI"],
      ["GIT_SEQUENCE_EDITOR='vim \"$1\"' git rebase -i HEAD~2", "requires an editor"],
    ] as const) {
      const found = interactiveCommand(cmd);
      expect(found?.reason, cmd).toContain(why);
      expect(found?.hint, cmd).toMatch(/\S/);
    }
  });
});

describe("chord shell: timeout_ms 0 in the foreground", () => {
  const deadlineOf = (id: string) => {
    const snap = t.ctx.jobs!.get(id)!;
    return snap.deadlineAt === undefined ? undefined : snap.deadlineAt - snap.startedAt;
  };
  const onlyJob = () => t.ctx.jobs!.list({ includeFinished: true })[0]!.id;

  it("with yield_time_ms 0 keeps the 600000 ms default (nothing would hand it to a job), and says so", async () => {
    const r = await call("shell", { command: "sh -c 'true'", timeout_ms: 0, yield_time_ms: 0 });
    expect(r.text).toBe(
      "(no output)\n[status: completed (exit code 0)]\nNote: with yield_time_ms: 0 nothing hands this command to the background, so it keeps the default deadline",
    );
    expect(deadlineOf(onlyJob())).toBe(600_000);
  });

  it("a command that cannot be promoted keeps it too", async () => {
    await call("shell", { command: "sleep 0", timeout_ms: 0 });
    expect(deadlineOf(onlyJob())).toBe(600_000);
  });

  it("a promotable command with a yield budget has none: the budget hands it to a job first", async () => {
    const r = await call("shell", { command: "sh -c 'true'", timeout_ms: 0 });
    expect(r.text).toBe("(no output)\n[status: completed (exit code 0)]");
    expect(deadlineOf(onlyJob())).toBeUndefined();
  });
});

describe("chord durations under a second", () => {
  it.each([
    [0, "0s"],
    [300, "0s"],
    [900, "0s"],
    [999, "0s"],
    [1000, "1s"],
    [1499, "1s"],
    [1500, "2s"],
    [59_600, "1m00s"],
  ])("%d ms reads %s", (ms, want) => expect(formatElapsed(ms)).toBe(want));
});

describe("chord background handle: a deadline only when there is one", () => {
  const HOW = "You will be notified when it finishes. Read its output with job_output; stop it with job_kill.";
  it("none given: no deadline line to mistake for one", async () => {
    const r = await call("shell", { command: "sleep 30", run_in_background: true });
    const id = /^\[background job (j\d+)\]/.exec(r.text)![1];
    expect(r.text).toBe(`[background job ${id}] started in the background: sleep 30\nIt runs without a deadline until it ends or is stopped.\n${HOW}`);
    expect(r.text.toLowerCase()).not.toContain("deadline:");
  });

  it("one given: when it falls and what happens then", async () => {
    const r = await call("shell", { command: "sleep 30", run_in_background: true, timeout_ms: 5000 });
    const id = /^\[background job (j\d+)\]/.exec(r.text)![1];
    expect(r.text).toBe(`[background job ${id}] started in the background: sleep 30\ndeadline: 5s from start, then it is killed\n${HOW}`);
  });
});

describe("chord command output: carriage-return redraws keep the last state of each line", () => {
  it.each([
    [String.raw`printf 'a\rb\nc\rd\n'`, "b\nd"],
    [String.raw`printf 'done\r'`, "done"],
    [String.raw`printf '10%%\r50%%\r100%%\n'`, "100%"],
  ])("%s", async (command, want) => {
    expect((await call("shell", { command })).text).toBe(`${want}\n[status: completed (exit code 0)]`);
  });
});
