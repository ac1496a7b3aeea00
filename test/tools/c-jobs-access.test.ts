// Whose jobs a Chord agent reaches, and a job the user stops, as Chord's
// tests pin them: on the Chord surface through the real dispatcher and
// profile with real processes. A worker reads, lists and stops its own jobs
// and the main agent's (its owner's), never a sibling worker's; the main
// agent reaches every job. A job stopped by the user reads `killed (stopped
// by user)`, and unlike the model's own job_kill its end is told to the model.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CoreEvent } from "../../core/events.js";
import { createJobNotices } from "../../core/jobs/notices.js";
import { USER_STOP_REASON } from "../../core/jobs/types.js";
import { chordNoticeStyle } from "../../tools/lib/chord/job-notice.js";
import { controlledSession } from "../support/controller-harness.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

/** One Chord call made by `agent`: "main", or a worker's task id. */
const callAs = (agent: string, tool: string, args: unknown) => chordCall(t, tool, args, { agent });

const startAs = async (agent: string, command: string, description: string) =>
  /\bj\d+\b/.exec((await callAs(agent, "shell", { command, description, run_in_background: true })).text)![0];
const NOT_OWNED = (id: string) =>
  `ERROR: job ${id} is not owned by this agent and is not accessible to it: a worker reads and stops only the jobs it started and the main agent's.`;

describe("chord jobs belong to the agent that started them", () => {
  it("a sibling worker can neither read nor stop another worker's job, and the job runs on", async () => {
    const id = await startAs("task-1", "sleep 30", "owned job");
    expect(await callAs("task-2", "job_output", { job_id: id, wait: "none" })).toEqual({ ok: false, text: NOT_OWNED(id) });
    expect(await callAs("task-2", "job_kill", { job_id: id })).toEqual({ ok: false, text: NOT_OWNED(id) });
    expect(t.ctx.jobs!.get(id)!.status).toBe("running");
    expect(await callAs("task-1", "job_output", { job_id: id, wait: "none" })).toEqual({ ok: true, text: "[status: running]" });
  });

  it("the main agent reads and stops a worker's job; a worker reads its owner's (the main agent's)", async () => {
    const workers = await startAs("task-1", "echo from-worker; sleep 30", "worker job");
    const mains = await startAs("main", "echo from-main; sleep 30", "main job");
    expect((await callAs("main", "job_output", { job_id: workers, wait: "output" })).text).toBe("from-worker\n[status: running]");
    expect((await callAs("task-2", "job_output", { job_id: mains, wait: "output" })).text).toBe("from-main\n[status: running]");
    const stop = await callAs("main", "job_kill", { job_id: workers, reason: "done with it" });
    expect(stop.text).toBe(`job ${workers} stopping (done with it); it has stopped\n[status: killed (done with it)]`);
  });

  it("job_list shows a worker its own jobs and the main agent's, not a sibling's; the main agent sees them all", async () => {
    const one = await startAs("task-1", "sleep 30", "task one job");
    const two = await startAs("task-2", "sleep 30", "task two job");
    const mains = await startAs("main", "sleep 30", "main job");
    const ids = (text: string) => text.split("\n").slice(1).map((row) => row.split(" | ")[0]);
    expect(ids((await callAs("task-1", "job_list", {})).text)).toEqual([one, mains]);
    expect(ids((await callAs("task-2", "job_list", {})).text)).toEqual([two, mains]);
    expect(ids((await callAs("main", "job_list", {})).text)).toEqual([one, two, mains]);
  });

  it("a worker with nothing of its own or the main agent's sees no jobs, and an unknown id names only the jobs it may use", async () => {
    const theirs = await startAs("task-1", "sleep 30", "not yours");
    expect((await callAs("task-2", "job_list", {})).text).toBe("no background jobs");
    expect((await callAs("task-2", "job_output", { job_id: "j99" })).text).toBe("ERROR: job j99 not found. No jobs have been started.");
    const mains = await startAs("main", "sleep 30", "main job");
    expect((await callAs("task-2", "job_kill", { job_id: "j99" })).text).toBe(`ERROR: job j99 not found. Known jobs: ${mains}.`);
    expect((await callAs("main", "job_kill", { job_id: "j99" })).text).toBe(`ERROR: job j99 not found. Known jobs: ${theirs}, ${mains}.`);
  });
});

describe("chord: a job the user stops", () => {
  const notices = () => {
    const n = createJobNotices("job_output", chordNoticeStyle(t.ctx.jobs!));
    for (const e of t.events) n.observe(e as CoreEvent);
    return n;
  };

  it("reads killed (stopped by user), and the model is told, with the pointer to its output", async () => {
    const id = await startAs("main", "sleep 30", "watch the build");
    await t.ctx.jobs!.kill(id, USER_STOP_REASON);
    expect((await callAs("main", "job_list", { include_finished: true })).text.split("\n")[1]).toMatch(new RegExp(`^${id} \\| killed \\(stopped by user\\) \\| `));
    const [notice, ...more] = notices().take();
    expect(more).toEqual([]);
    const lines = notice!.split("\n");
    expect(lines.slice(0, 3)).toEqual([`[Background job ${id} finished]`, "", "Status: killed (stopped by user)"]);
    expect(lines.slice(5)).toEqual(["Purpose: watch the build", "Command: sleep 30", "", `Read its output with job_output(${id}).`]);
  });

  it("a client's own reason follows Chord's words, and the default surface's notice says the user stopped it", async () => {
    const id = await startAs("main", "sleep 30", "server");
    await t.ctx.jobs!.kill(id, `${USER_STOP_REASON}: port needed`);
    expect((await callAs("main", "job_output", { job_id: id })).text).toBe("[status: killed (stopped by user: port needed)]");
    const yuj = createJobNotices("bash_poll");
    for (const e of t.events) yuj.observe(e as CoreEvent);
    expect(yuj.take()).toEqual([expect.stringMatching(new RegExp(`^Background job ${id} \\(server\\) was stopped by the user after \\d+\\.\\ds\\. Read its output with bash_poll\\.$`))]);
  });

  it("the session's kill_job operation (the jobs panel's stop) stops it in those words", async () => {
    const s = controlledSession([{ tool_calls: [{ name: "done", arguments: { message: "unused" } }] }], { jobs: t.ctx.jobs! });
    try {
      const plain = await startAs("main", "sleep 30", "plain");
      const told = await startAs("main", "sleep 30", "told");
      expect(s.controller.submit({ type: "kill_job", jobId: plain })).toBeUndefined();
      expect(s.controller.submit({ type: "kill_job", jobId: told, reason: "port needed" })).toBeUndefined();
      for (const id of [plain, told]) await t.ctx.jobs!.wait(id, "exit", 10_000);
      expect((await callAs("main", "job_output", { job_id: plain })).text).toBe("[status: killed (stopped by user)]");
      expect((await callAs("main", "job_output", { job_id: told })).text).toBe("[status: killed (stopped by user: port needed)]");
    } finally {
      await s.close();
    }
  });

  it("the model's own job_kill is still no news", async () => {
    const id = await startAs("main", "sleep 30", "mine");
    await callAs("main", "job_kill", { job_id: id });
    expect(notices().take()).toEqual([]);
  });
});
