// The command tools of both surfaces over the real job manager: Chord's
// shell / job_output / job_list / job_kill and Yuj's background bash,
// bash_poll and bash_kill. Real processes throughout.

import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { bashKillTool } from "../../tools/yuj/bash_kill.js";
import { bashPollTool } from "../../tools/yuj/bash_poll.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { jobKillTool } from "../../tools/chord/job_kill.js";
import { jobListTool } from "../../tools/chord/job_list.js";
import { jobOutputTool } from "../../tools/chord/job_output.js";
import { shellTool } from "../../tools/chord/shell.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.background_enabled = true;
  });
});
afterEach(async () => {
  await t.cleanup();
});

const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
const jobIdIn = (text: string) => /\bj\d+\b/.exec(text)?.[0] ?? "";

/** Pids of live (non-zombie) processes whose command line contains `marker`. */
function alive(marker: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l.includes(marker) && !l.includes("ps -eo"))
    .filter((l) => !/^\s*\d+\s+Z/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe("chord shell", () => {
  it("runs a foreground command and ends with its status line", async () => {
    expect(await call(shellTool, { command: "echo hi" })).toMatchObject({ ok: true, modelText: "hi\n[status: completed (exit code 0)]" });
    const failed = await call(shellTool, { command: "echo oops >&2; exit 3" });
    expect(failed).toMatchObject({ ok: false, modelText: "oops\n[status: failed (exit code 3)]\nThe command failed with exit code 3." });
  });

  it("promotes a long foreground command to a job that finishes as a job", async () => {
    const started = Date.now();
    const r = await call(shellTool, { command: "sleep 2; echo finished", yield_time_ms: 200 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.ok).toBe(true);
    const id = jobIdIn(r.modelText);
    expect(r.modelText).toContain(`continues as background job ${id}`);
    expect(t.events.some((e) => e.type === "job_promoted" && e.jobId === id)).toBe(true);
    const done = await call(jobOutputTool, { job_id: id, wait: "exit" });
    expect(done.modelText).toBe("finished\n[status: completed (exit code 0)]");
  });

  it("keeps a pure wait in the foreground: it cannot be promoted", async () => {
    const r = await call(shellTool, { command: "sleep 0.6", yield_time_ms: 100 });
    expect(r.modelText).toBe("(no output)\n[status: completed (exit code 0)]");
    expect(t.events.some((e) => e.type === "job_promoted")).toBe(false);
  });

  it("hands back a command whose shell exits while its children run", async () => {
    const r = await call(shellTool, { command: "sleep 30 & echo started", yield_time_ms: 5000 });
    expect(r.modelText).toMatch(/^\[background job j\d+\] the command exited, but processes it started still run: they continue as background job j\d+\.\nstarted\n/);
    const id = jobIdIn(r.modelText.split("\n")[0]!);
    const list = await call(jobListTool, {});
    expect(list.modelText).toContain(`${id} | running`);
    const killed = await call(jobKillTool, { job_id: id, reason: "test over" });
    expect(killed.modelText).toBe(`job ${id} stopping (test over); it has stopped\n[status: killed (test over)]`);
  });

  it("stops a foreground command at timeout_ms", async () => {
    const r = await call(shellTool, { command: "echo begun; sleep 20; echo never", timeout_ms: 400, yield_time_ms: 60_000 });
    expect(r.ok, JSON.stringify(r)).toBe(false);
    expect(r.modelText).toMatch(/^begun\n\[status: killed \(timed out after 400ms\)\]\nThe command timed out after 400ms and was stopped\. Re-running it unchanged will hit the same deadline: .*run_in_background: true/);
  });

  it("caps a background deadline at 6 h and says so", async () => {
    const r = await call(shellTool, { command: "sleep 30", run_in_background: true, timeout_ms: 99_999_999 });
    expect(r.modelText).toMatch(/^\[background job j\d+\] started in the background: sleep 30\ndeadline: 21600s from start, then it is killed\nNote: timeout_ms capped at 21600000 \(6 h\)/);
  });

  it("adds the output-preservation reminder to a slow pipeline through tail", async () => {
    const r = await call(shellTool, { command: "sleep 3.1; seq 1 50 | tail -2" });
    expect(r.modelText).toMatch(/^49\n50\n\[status: completed \(exit code 0\)\]\n\(command took 3s\)\nNote: this command's output went through tail/);
  }, 10_000);

  it("refuses a workdir outside the task directory", async () => {
    const r = await call(shellTool, { command: "pwd", workdir: "../.." });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: path escapes cwd/);
  });
});

describe("chord job_output", () => {
  it("reports polling, then rejects repeated empty non-blocking reads", async () => {
    const id = jobIdIn((await call(shellTool, { command: "sleep 30", run_in_background: true })).modelText);
    const first = await call(jobOutputTool, { job_id: id });
    expect(first).toEqual({ ok: true, modelText: "[status: running]" });
    const second = await call(jobOutputTool, { job_id: id });
    expect(second.modelText).toContain("[notice] no new output across 2 consecutive non-blocking reads; stop polling. Use `wait: output`");
    const third = await call(jobOutputTool, { job_id: id });
    expect(third.ok).toBe(false);
    expect(third.modelText).toMatch(/^ERROR: Tool call rejected automatically: job j\d+ produced no new output across 3 consecutive non-blocking job_output reads\. Stop polling\./);
    // A blocking wait is always allowed and resets the count.
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const waited = await jobOutputTool.run({ job_id: id, wait: "output" }, { ...t.ctx, signal: ac.signal });
    expect(waited.modelText).toMatch(/^\[notice\] wait: output was cancelled by the caller; the job is still running, no output for \d+s\n\[status: running\]$/);
    expect((await call(jobOutputTool, { job_id: id })).ok).toBe(true);
  });

  it("waits for output and returns only what is new", async () => {
    const id = jobIdIn((await call(shellTool, { command: "echo one; sleep 0.4; echo two; sleep 30", run_in_background: true })).modelText);
    const a = await call(jobOutputTool, { job_id: id, wait: "output" });
    expect(a.modelText.startsWith("one\n")).toBe(true);
    const b = await call(jobOutputTool, { job_id: id, wait: "output" });
    expect(b.modelText).toBe("two\n[status: running]");
  });

  it("names the known jobs for an unknown id", async () => {
    await call(shellTool, { command: "true", run_in_background: true });
    const r = await call(jobOutputTool, { job_id: "j99" });
    expect(r).toEqual({ ok: false, modelText: 'ERROR: job j99 not found. Known jobs: j1.' });
  });

  it("kills a grandchild that ignores SIGTERM", async () => {
    const marker = `yuj-test-marker-${process.pid}-${Date.now()}`;
    const id = jobIdIn(
      (await call(shellTool, { command: `bash -c 'trap "" TERM; exec -a ${marker} sleep 60' & sleep 60`, run_in_background: true })).modelText,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(marker).length).toBeGreaterThan(0);
    const r = await call(jobKillTool, { job_id: id });
    expect(r.modelText).toBe(`job ${id} stopping (cancelled by job_kill); it has stopped\n[status: killed (cancelled by job_kill)]`);
    expect(alive(marker)).toEqual([]);
    const list = await call(jobListTool, { include_finished: true });
    expect(list.modelText).toContain(`${id} | killed`);
  });
});

describe("yuj background bash", () => {
  it("starts, polls and kills a background command", async () => {
    const r = await call(bashTool, { cmd: "for i in 1 2 3; do echo tick $i; sleep 0.2; done; sleep 30", background: true });
    const id = /proc_id='(j\d+)'/.exec(r.modelText)![1]!;
    const poll = await call(bashPollTool, { proc_id: id, timeout_s: 2 });
    expect(poll.modelText).toMatch(/^tick 1/);
    expect(poll.modelText.endsWith(`[background process ${id}: running]`)).toBe(true);
    const killed = await call(bashKillTool, { proc_id: id });
    expect(killed.modelText).toMatch(new RegExp(`^Killed background process ${id} \\(process group \\d+\\)$`));
    const after = await call(bashPollTool, { proc_id: id, timeout_s: 0 });
    expect(after.modelText.endsWith(`[background process ${id}: killed]`)).toBe(true);
  });

  it("reports the exit code once a background command ends", async () => {
    const id = /proc_id='(j\d+)'/.exec((await call(bashTool, { cmd: "echo bye; exit 4", background: true })).modelText)![1]!;
    const poll = await call(bashPollTool, { proc_id: id, timeout_s: 5 });
    expect(poll.modelText).toBe(`bye\n[background process ${id}: exited (4)]`);
  });

  it("refuses background work when it is disabled", async () => {
    t.ctx.config.tools.background_enabled = false;
    const r = await call(bashTool, { cmd: "sleep 1", background: true });
    expect(r.modelText).toBe("ERROR: background commands are disabled (set [tools].background_enabled = true)");
  });

  it("refuses a shell write into a code file, naming the write tool", async () => {
    const r = await call(bashTool, { cmd: "cat > src/app.py <<'EOF'\nprint(1)\nEOF" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: shell_refused: writing src\/app\.py with cat — use the write tool instead/);
  });

  it("routes a simple file display to read when bash_redirect_read_side is on", async () => {
    t.ctx.config.tools.bash_redirect_read_side = true;
    const r = await call(bashTool, { cmd: "cat README.md" });
    expect(r.modelText).toMatch(/^ERROR: shell_routed: use the read tool for this/);
    t.ctx.config.tools.bash_redirect_read_side = false;
    await t.put({ "README.md": "hello\n" });
    expect((await call(bashTool, { cmd: "cat README.md" })).modelText).toBe("hello");
  });
});
