// Ctrl+C is honoured in every phase of a foreground command, on both
// surfaces: while it prints at full speed (and its log stays within the cap
// the whole time), and after it ended while the result is being put
// together. Real processes; the outcome is asserted, not how long it took.

import * as fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJobManager } from "../../core/jobs/manager.js";
import type { JobManager } from "../../core/jobs/types.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { shellTool } from "../../tools/chord/shell.js";
import { liveMembers, until } from "../jobs/support.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const CAP = 1024 * 1024;

let t: TestToolContext;
let jobs: JobManager;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(async () => {
  jobs.killAllSync();
  await jobs.shutdown();
  await t.cleanup();
});

/** A manager with a small log cap; `onExit` runs when a job's end is announced. */
function useJobs(onExit: () => void = () => undefined): void {
  const emit = t.ctx.emit;
  jobs = createJobManager({
    sessionDir: t.ctx.sessionDir,
    maxLogBytes: CAP,
    emit: (body) => {
      const event = emit(body);
      if (body.type === "job_exited") onExit();
      return event;
    },
  });
  t.ctx.jobs = jobs;
}

const surfaces: Array<[string, ToolHandler, (command: string) => Record<string, unknown>]> = [
  ["bash", bashTool as unknown as ToolHandler, (command) => ({ cmd: command })],
  ["shell", shellTool as unknown as ToolHandler, (command) => ({ command })],
];

describe.each(surfaces)("%s in the foreground", (_name, tool, argsFor) => {
  const run = (command: string) => tool.run(tool.schema.parse(argsFor(command)), t.ctx);

  it("a command printing at full speed is cancelled, its group ended, its log never past the cap", async () => {
    useJobs();
    const result = run("yes");
    // Cancel only once it has printed several times the cap.
    expect(await until(() => (jobs.get("j1")?.totalBytes ?? 0) > 4 * CAP, 20_000, 5)).toBe(true);
    expect(fs.statSync(jobs.get("j1")!.outputFile).size).toBeLessThanOrEqual(CAP);
    t.abort.abort(new Error("cancelled by the user"));
    const r = await result;
    expect(r).toEqual({ ok: false, modelText: "ERROR: command cancelled" });
    const snap = jobs.get("j1")!;
    expect(snap.status).toBe("killed");
    expect(liveMembers(snap.pid)).toEqual([]);
    expect(fs.statSync(snap.outputFile).size).toBeLessThanOrEqual(CAP);
  });

  it("a cancel that arrives as the command ends wins over its result", async () => {
    useJobs(() => t.abort.abort(new Error("cancelled by the user")));
    const r = await run("head -c 8000000 /dev/zero | tr '\\0' 'y'");
    expect(r).toEqual({ ok: false, modelText: "ERROR: command cancelled" });
    expect(jobs.get("j1")!.status).toBe("exited");
  });
});
