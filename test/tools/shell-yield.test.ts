// When Chord's shell hands a foreground command back as a job, and when it
// must not: yield_time_ms: 0 turns the time limit off, a deadline reached
// first is a timeout, and a short command is not handed back because yuj
// was too busy to notice it had ended. Real processes throughout.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventBody } from "../../core/events.js";
import { createJobManager } from "../../core/jobs/manager.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { jobKillTool } from "../../tools/chord/job_kill.js";
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
const promoted = () => t.events.some((e) => e.type === "job_promoted");

describe("chord shell: handing a command back as a job", () => {
  it("with yield_time_ms: 0 waits for a slow command instead of handing it back at once", async () => {
    const r = await call(shellTool, { command: "sleep 0.7; echo finished", yield_time_ms: 0 });
    expect(r.ok).toBe(true);
    expect(r.modelText).toMatch(/^finished\n\[status: completed \(exit code 0\)\]/);
    expect(promoted()).toBe(false);
  });

  it("with yield_time_ms: 0 still hands back a command whose shell exits while its group runs", async () => {
    const r = await call(shellTool, { command: "sleep 30 & echo started", yield_time_ms: 0 });
    expect(r.modelText).toMatch(/^\[background job (j\d+)\] the command exited, but processes it started still run: they continue as background job j\d+\.\nstarted\n/);
    const id = /job (j\d+)/.exec(r.modelText)![1]!;
    expect(promoted()).toBe(true);
    expect((await call(jobKillTool, { job_id: id })).modelText).toContain("[status: killed (");
  });

  it("reports a command that reaches timeout_ms before yield_time_ms as timed out, never as a job", async () => {
    // It ignores SIGTERM, so it is still being stopped when its budget runs out.
    const r = await call(shellTool, { command: "trap '' TERM; echo begun; sleep 20", timeout_ms: 300, yield_time_ms: 800 });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^begun\n\[status: killed \(timed out after 300ms\)\]\n\(command took \ds\)\nThe command timed out after 300ms and was stopped\. Re-running it unchanged will hit the same deadline: /);
    expect(promoted()).toBe(false);
  });

  it("does not hand back a short command that ended while yuj was busy", async () => {
    // The manager's events arrive on yuj's own thread; blocking it on the
    // first output keeps yuj from seeing the exit until the budget is gone.
    const sessionDir = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-busy-"));
    const seen: EventBody[] = [];
    const jobs = createJobManager({
      sessionDir,
      emit: (body) => {
        seen.push(body);
        if (body.type === "job_output") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
        return body as never;
      },
    });
    t.ctx.jobs = jobs;
    try {
      const r = await call(shellTool, { command: "echo hi", yield_time_ms: 100 });
      expect(r).toMatchObject({ ok: true, modelText: "hi\n[status: completed (exit code 0)]" });
      expect(seen.some((e) => e.type === "job_promoted") || promoted()).toBe(false);
    } finally {
      await jobs.shutdown();
      await fsp.rm(sessionDir, { recursive: true, force: true });
    }
  });
});
