// The Chord job and command behaviour its own tests pin (fifth set), on the
// Chord surface through the real dispatcher and profile with real processes:
// the completion notice a background job wakes the model with (Chord's
// `[Background job … finished]` block with the end of the output, none when
// the model already read the end or killed the job), a killed job's reads
// naming the reason, an unknown wait refused with the value sent, long
// output whose similar lines were collapsed naming its saved copy, notify's
// refused replies, and a headless run on each surface that hears of its job.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CoreEvent } from "../../core/events.js";
import { createJobNotices, type JobNotices } from "../../core/jobs/notices.js";
import { chordNoticeStyle } from "../../tools/lib/chord/job-notice.js";
import { chordCall } from "../support/chord-call.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, sessionDirOf, workerHistory } from "../support/delegation.js";
import { fakeClock } from "../support/fake-clock.js";
import { until } from "../jobs/support.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const jobIdIn = (text: string) => /\bj\d+\b/.exec(text)?.[0] ?? "";

/** Starts `command` as a background shell job and waits until it has ended (without reading it). */
async function finished(args: Record<string, unknown>): Promise<string> {
  const id = jobIdIn((await call("shell", { run_in_background: true, ...args })).text);
  await t.ctx.jobs!.wait(id, "exit", 30_000);
  return id;
}

/** The session's notices in the Chord style, told every event the tools emitted so far. */
function chordNotices(): JobNotices {
  const notices = createJobNotices("job_output", chordNoticeStyle(t.ctx.jobs!));
  for (const e of t.events) notices.observe(e as CoreEvent);
  return notices;
}

/** The notices, with the durations (whole seconds of real time) as `<t>`; the fake-clock test pins them. */
const takeTimed = (notices: JobNotices) => notices.take().map((n) => n.replace(/^Elapsed: \S+$/m, "Elapsed: <t>").replace(/^Quiet: \S+/m, "Quiet: <t>"));
const TIMES = "Elapsed: <t>\nQuiet: <t>\n";

describe("chord background job completion notice", () => {
  it("a clean exit: status, purpose, command and the output, no pointer to another read", async () => {
    const id = await finished({ command: "echo ok", description: "Run the full test suite" });
    expect(takeTimed(chordNotices())).toEqual([
      `[Background job ${id} finished]\n\nStatus: completed (exit code 0)\n${TIMES}Purpose: Run the full test suite\nCommand: echo ok\n\nRelevant output:\nok`,
    ]);
  });

  it("a failure has no purpose line without a description and points at job_output(<id>)", async () => {
    const id = await finished({ command: "echo hi; exit 1" });
    expect(takeTimed(chordNotices())).toEqual([
      `[Background job ${id} finished]\n\nStatus: failed (exit code 1)\n${TIMES}Command: echo hi; exit 1\n\nRelevant output:\nhi\n\nRead its output with job_output(${id}).`,
    ]);
  });

  it("long output keeps its last 500 bytes, marked as a tail excerpt", async () => {
    const id = await finished({ command: "printf 'x%.0s' $(seq 900); printf 'FATAL: boom\\n'; exit 2" });
    const [notice] = takeTimed(chordNotices());
    const tail = "x".repeat(500 - "FATAL: boom\n".length) + "FATAL: boom";
    expect(notice).toBe(
      `[Background job ${id} finished]\n\nStatus: failed (exit code 2)\n${TIMES}Command: printf 'x%.0s' $(seq 900); printf 'FATAL: boom\\n'; exit 2\n\n` +
        `Relevant output:\n...(showing the last 500 bytes)\n${tail}\n\nRead its output with job_output(${id}).`,
    );
  });

  it("the command is its first line only, cut past 200 characters; escapes are stripped from the output", async () => {
    const long = `echo ${"a".repeat(250)}`;
    const id = await finished({ command: `printf '\\033[31mred\\033[0m\\n'\n${long}` });
    const [notice] = takeTimed(chordNotices());
    expect(notice!.split("\n").slice(5)).toEqual(["Command: printf '\\033[31mred\\033[0m\\n'", "", "Relevant output:", `red\n${"a".repeat(250)}`].join("\n").split("\n"));
    const id2 = await finished({ command: long });
    const second = takeTimed(chordNotices()).find((n) => n.startsWith(`[Background job ${id2} `))!;
    expect(second).toContain(`\nCommand: ${long.slice(0, 200)}...(truncated)\n`);
    expect(id2).not.toBe(id);
  });

  it("a job past its deadline is told as killed (timed out after …), with the pointer", async () => {
    const id = await finished({ command: "echo started; sleep 30", timeout_ms: 1000 });
    expect(takeTimed(chordNotices())).toEqual([
      `[Background job ${id} finished]\n\nStatus: killed (timed out after 1s)\n${TIMES}Command: echo started; sleep 30\n\nRelevant output:\nstarted\n\nRead its output with job_output(${id}).`,
    ]);
  });

  it("a job without output has no output section", async () => {
    const id = await finished({ command: "true" });
    expect(takeTimed(chordNotices())).toEqual([`[Background job ${id} finished]\n\nStatus: completed (exit code 0)\nElapsed: <t>\nQuiet: <t> (no output yet)\nCommand: true`]);
  });

  it("a terminal job_output read already told the end: no notice, and nothing to wait for", async () => {
    const id = await finished({ command: "printf done" });
    const notices = chordNotices();
    expect((await call("job_output", { job_id: id, wait: "exit" })).text).toBe("done\n[status: completed (exit code 0)]");
    expect(await notices.wait(new AbortController().signal)).toBe(false);
    expect(notices.take()).toEqual([]);
  });

  it("a read while the job still runs does not count as reading its end", async () => {
    const id = jobIdIn((await call("shell", { command: "echo first; sleep 1; echo second", run_in_background: true })).text);
    await call("job_output", { job_id: id, wait: "output" });
    await t.ctx.jobs!.wait(id, "exit", 30_000);
    expect(takeTimed(chordNotices())).toEqual([
      `[Background job ${id} finished]\n\nStatus: completed (exit code 0)\n${TIMES}Command: echo first; sleep 1; echo second\n\nRelevant output:\nfirst\nsecond`,
    ]);
  });

  it("job_kill suppresses the notice", async () => {
    const id = jobIdIn((await call("shell", { command: "sleep 30", run_in_background: true })).text);
    await call("job_kill", { job_id: id, reason: "no longer needed" });
    expect(takeTimed(chordNotices())).toEqual([]);
  });

  it("a command promoted past its foreground budget is named by its command", async () => {
    const r = await call("shell", { command: "sleep 1; echo late", yield_time_ms: 100 });
    const id = jobIdIn(r.text);
    await t.ctx.jobs!.wait(id, "exit", 30_000);
    expect(takeTimed(chordNotices())).toEqual([
      `[Background job ${id} finished]\n\nStatus: completed (exit code 0)\n${TIMES}Command: sleep 1; echo late\n\nRelevant output:\nlate`,
    ]);
  });
});

describe("chord job reads after a kill, and a wait the tool does not know", () => {
  it("every later read of a killed job says why it was stopped, as job_kill did", async () => {
    const id = jobIdIn((await call("shell", { command: "sleep 30", run_in_background: true })).text);
    expect((await call("job_kill", { job_id: id, reason: "no longer needed" })).text).toBe(`job ${id} stopping (no longer needed); it has stopped\n[status: killed (no longer needed)]`);
    expect((await call("job_output", { job_id: id })).text).toBe("[status: killed (no longer needed)]");
    expect((await call("job_kill", { job_id: id })).text).toBe(`job ${id} already finished\n[status: killed (no longer needed)]`);
    expect((await call("job_list", { include_finished: true })).text.split("\n")[1]).toMatch(new RegExp(`^${id} \\| killed \\(no longer needed\\) \\| `));
  });

  it("without a reason the stop is job_kill's, on the next read too", async () => {
    const id = jobIdIn((await call("shell", { command: "sleep 30", run_in_background: true })).text);
    await call("job_kill", { job_id: id });
    expect((await call("job_output", { job_id: id })).text).toBe("[status: killed (cancelled by job_kill)]");
  });

  it("an unknown wait is refused naming the accepted values and the one sent", async () => {
    const id = await finished({ command: "true" });
    expect(await call("job_output", { job_id: id, wait: "forever" })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for job_output: wait: expected one of "none", "output", "exit", got string "forever"',
    });
  });
});

describe("chord job output as the model reads it", () => {
  // What the command printed (as printf writes it) → what job_output shows before its status line.
  const cases: Array<[string, string, string]> = [
    ["plain", "hello\\n", "hello"],
    ["colour", "\\033[31merror\\033[0m\\n", "error"],
    ["a cursor sequence", "\\033[2Kdone", "done"],
    ["a progress redraw keeps the last state", "10%%\\r50%%\\r100%%\\n", "100%"],
    ["redraws on several lines", "a\\rb\\nc\\rd\\n", "b\nd"],
    ["CRLF line endings", "line\\r\\nnext\\r\\n", "line\nnext"],
    ["a trailing carriage return keeps the text", "done\\r", "done"],
    ["a carriage return at a line's start", "first\\n\\rlast", "first\nlast"],
  ];
  it.each(cases)("%s", async (_name, printed, shown) => {
    const id = await finished({ command: `printf '${printed}'` });
    expect((await call("job_output", { job_id: id })).text).toBe(`${shown}\n[status: completed (exit code 0)]`);
  });
});

describe("chord shell output past 16 KiB that fits once similar lines are collapsed", () => {
  it("names the saved output, which read and grep open", async () => {
    const r = await call("shell", { command: "for i in $(seq 1 3000); do echo line-$i-abcdefghij; done" });
    const path = join(t.ctx.sessionDir, "jobs", "j1.log");
    expect(r.text).toBe(
      `line-1-abcdefghij\n  ... [×3000 similar lines]\nline-3000-abcdefghij\n[... 61893 bytes shown with similar lines collapsed; full output: ${path} ...]\n[status: completed (exit code 0)]`,
    );
    expect((await call("read", { path, offset: 1500, limit: 2 })).text).toBe("READ_RESULT lines=1500-1501 total=3000\nline-1500-abcdefghij\nline-1501-abcdefghij\n");
    expect((await call("grep", { pattern: "line-2999-", paths: [path] })).text).toBe(`${path}:2999:line-2999-abcdefghij`);
  });

  it("output that fits the budget is shown as it is, with no reference", async () => {
    const r = await call("shell", { command: "for i in $(seq 1 500); do echo line-$i-abcdefghij; done" });
    expect(r.text).toBe("line-1-abcdefghij\n  ... [×500 similar lines]\nline-500-abcdefghij\n[status: completed (exit code 0)]");
  });
});

describe("chord completion notice durations, on a clock the test moves", () => {
  it("elapsed and quiet in a job table's words; a silent job says it had no output yet", async () => {
    const clock = fakeClock();
    const c = await makeToolContext(undefined, { clock });
    try {
      const job = c.ctx.jobs!.start({ command: "while [ ! -e go1 ]; do sleep 0.02; done; echo ok; while [ ! -e go2 ]; do sleep 0.02; done", cwd: c.cwd, background: true, label: "build it" });
      await clock.advance(90_000);
      await c.put({ go1: "" });
      expect(await until(() => c.ctx.jobs!.get(job.id)!.totalBytes > 0)).toBe(true);
      await clock.advance(5_000);
      await c.put({ go2: "" });
      expect(await until(() => c.ctx.jobs!.get(job.id)!.status === "exited")).toBe(true);
      const silent = c.ctx.jobs!.start({ command: "while [ ! -e go3 ]; do sleep 0.02; done", cwd: c.cwd, background: true });
      await clock.advance(120_000);
      await c.put({ go3: "" });
      expect(await until(() => c.ctx.jobs!.list().length === 0)).toBe(true);
      const notices = createJobNotices("job_output", chordNoticeStyle(c.ctx.jobs!));
      for (const e of c.events) notices.observe(e as CoreEvent);
      const [built, quiet] = notices.take();
      expect(built!.split("\n").slice(2, 6)).toEqual(["Status: completed (exit code 0)", "Elapsed: 1m35s", "Quiet: 5s", "Purpose: build it"]);
      expect(quiet!.split("\n").slice(2, 5)).toEqual(["Status: completed (exit code 0)", "Elapsed: 2m00s", "Quiet: 2m00s (no output yet)"]);
      expect(silent.id).not.toBe(job.id);
    } finally {
      clock.release();
      await c.cleanup();
    }
  });
});

describe("yuj's own notice stays one line", () => {
  it("names the job, how it ended and the tool that reads it; a promoted job by its command", async () => {
    const r = await call("shell", { command: "sleep 1; exit 3", yield_time_ms: 100 });
    const id = jobIdIn(r.text);
    await t.ctx.jobs!.wait(id, "exit", 30_000);
    const notices = createJobNotices("job_output");
    for (const e of t.events) notices.observe(e as CoreEvent);
    expect(notices.take()).toEqual([expect.stringMatching(new RegExp(`^Background job ${id} \\(sleep 1; exit 3\\) finished with exit code 3 after \\d+\\.\\ds\\. Read its output with job_output\\.$`))]);
  });
});

describe("a headless run that keeps its background job", () => {
  /** A scripted model that starts `command` in the background, then answers twice. */
  function setup(surface: "_base" | "chord", command: string): { cwd: string; config: string } {
    const cwd = mkdtempSync(join(tmpdir(), "yuj-chord-notice-"));
    const start =
      surface === "_base"
        ? { name: "bash", arguments: { cmd: command, background: true } }
        : { name: "shell", arguments: { command, description: "build it", run_in_background: true } };
    const turns = [{ text: "Starting it.", tool_calls: [start] }, { text: "Waiting for it." }, { text: "It finished." }];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    const toml = ["[provider]", 'name = "scripted"', `scenario = "${join(cwd, "scenario.json")}"`, "[tools]", "background_enabled = true", "[sandbox]", 'mode = "off"'];
    writeFileSync(join(cwd, "yuj.toml"), toml.join("\n"));
    return { cwd, config: join(cwd, "yuj.toml") };
  }

  const noticeOf = async (surface: "_base" | "chord") => {
    const { cwd, config } = setup(surface, "sleep 1; echo built; exit 4");
    const res = await runCli(["code", "start the job", "--profile", surface, "--config", config, "--keep-jobs", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 30_000 });
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; text?: string });
    // What the model is told comes tagged [yuj]; yuj's own lines to the user do not.
    return events.filter((e) => e.type === "notice" && e.text?.startsWith("[yuj] ")).map((e) => e.text);
  };

  it("on the chord surface the model hears Chord's block with the output's end", async () => {
    const [notice, ...more] = await noticeOf("chord");
    expect(more).toEqual([]);
    expect(notice!.replace(/^Elapsed: \S+$/m, "Elapsed: <t>").replace(/^Quiet: \S+$/m, "Quiet: <t>")).toBe(
      "[yuj] [Background job j1 finished]\n\nStatus: failed (exit code 4)\nElapsed: <t>\nQuiet: <t>\nPurpose: build it\nCommand: sleep 1; echo built; exit 4\n\n" +
        "Relevant output:\nbuilt\n\nRead its output with job_output(j1).",
    );
  });

  it("on the default surface it hears yuj's line", async () => {
    expect(await noticeOf("_base")).toEqual([expect.stringMatching(/^\[yuj\] Background job j1 \(sleep 1; echo built; exit 4\) finished with exit code 4 after \d+\.\ds\. Read its output with bash_poll\.$/)]);
  });
});

describe("chord notify replies the main agent gets wrong", () => {
  it("a response without correlation_id says how to send a plain message; an invented one is refused as unknown; a worker's targeted reply is not for its role", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "write a.txt", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          {
            tool_calls: [
              { name: "notify", arguments: { target_task_id: "task-1", message: "Answer", message_type: "response" } },
              { name: "notify", arguments: { target_task_id: "task-1", message: "Answer", message_type: "response", correlation_id: "corr-guess" } },
            ],
          },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message: "Continue", message_type: "response", correlation_id: "corr-1" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "nothing to do" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n[orchestration]\nmax_depth = 1\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const notes = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && r.name === "notify");
    expect(notes.map((n) => [n.ok, n.modelText])).toEqual([
      [
        false,
        'notify refused: correlation_id is required for response: a reply (message_type "response") needs the correlation_id of the request it answers. ' +
          "To send a plain message instead, call notify again without the message_type and correlation_id keys.",
      ],
      [
        false,
        'notify refused: unknown pending request "corr-guess" for task task-1; open: (none). ' +
          "A correlation_id must be copied from the request being answered; it can never be invented, guessed, or reused.",
      ],
    ]);
    const worker = workerHistory(sessionDirOf(env), "task-1");
    expect(worker.some((h) => (h.text ?? "").includes("Answer"))).toBe(false);
    // A worker that may not delegate (max_depth = 1) may only update its owner: a targeted reply is not for its role.
    expect(worker.filter((h) => h.role === "tool" && h.name === "notify").map((h) => h.text)).toEqual([
      "notify refused: target_task_id is not available in this role: a worker can only notify its owner; omit target_task_id",
    ]);
  }, 90_000);
});
