// The long waits of the job tools, on a clock the test moves: job_output's
// 30 s wait ends at 30 s, not a moment before, and leaves the job running;
// a command's deadline ends it at its timeout and not before. Real
// processes; only the time is the test's.

import { afterEach, describe, expect, it } from "vitest";
import { MAX_WAIT_MS, jobOutputTool } from "../../tools/chord/job_output.js";
import { jobListTool } from "../../tools/chord/job_list.js";
import { until } from "../jobs/support.js";
import { fakeClock, type FakeClock } from "../support/fake-clock.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext | undefined;
let clock: FakeClock | undefined;
afterEach(async () => {
  clock?.release();
  await t?.cleanup();
  t = undefined;
});

async function setup(): Promise<{ t: TestToolContext; clock: FakeClock }> {
  clock = fakeClock();
  t = await makeToolContext(undefined, { clock });
  return { t, clock };
}

/** Whether `p` has settled, once everything already queued has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("job waits on the session's clock", () => {
  it("job_output's wait for output times out at 30 s, says so, and leaves the job running", async () => {
    const { t, clock } = await setup();
    const job = t.ctx.jobs!.start({ command: "sleep 600", cwd: t.cwd, background: true });
    const reading = jobOutputTool.run({ job_id: job.id, wait: "output" }, t.ctx);
    expect(await until(() => clock.pending() > 0)).toBe(true);
    await clock.advance(MAX_WAIT_MS - 1);
    expect(await settled(reading)).toBe(false);
    await clock.advance(1);
    const r = await reading;
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("[notice] wait: output timed out after 30s; the job is still running, no output for 30s");
    expect(t.ctx.jobs!.get(job.id)!.status).toBe("running");
  });

  it("job_list says a job silent for five minutes may still be working, not before", async () => {
    const { t, clock } = await setup();
    const job = t.ctx.jobs!.start({ command: "sleep 900", cwd: t.cwd, background: true, label: "npm run watch" });
    await clock.advance(4 * 60_000);
    expect((await jobListTool.run({}, t.ctx)).modelText).not.toContain("may still be working");
    await clock.advance(8 * 60_000);
    const row = (await jobListTool.run({}, t.ctx)).modelText.split("\n").find((l) => l.startsWith(`${job.id} |`))!;
    expect(row).toContain("running");
    expect(row).toContain("no output for 12m00s; the runner may still be working");
    expect(row).toContain("npm run watch");
  });

  it("ends a command at its deadline, not before", async () => {
    const { t, clock } = await setup();
    const job = t.ctx.jobs!.start({ command: "sleep 600", cwd: t.cwd, background: false, deadlineMs: 10 * 60_000 });
    expect(await until(() => clock.pending() > 0)).toBe(true);
    await clock.advance(10 * 60_000 - 1);
    expect(t.ctx.jobs!.get(job.id)!.status).toBe("running");
    await clock.advance(1);
    // The group is signalled now; its end (and the grace before SIGKILL) runs in real time.
    clock.release();
    expect(await t.ctx.jobs!.wait(job.id, "exit", 10_000)).toBe("exited");
    expect(t.ctx.jobs!.get(job.id)).toMatchObject({ status: "timed_out", signal: "SIGTERM" });
  });
});
