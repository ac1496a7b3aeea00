// Inside the sandbox a job owns its process group as it does outside: a
// command whose shell exits while `nohup x &` still runs is handed back as a
// job that stays running until x exits, and job_kill or the session's end
// stops it. Real bwrap, real processes; `ps` and the project's files judge.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { jobKillTool } from "../../tools/chord/job_kill.js";
import { jobOutputTool } from "../../tools/chord/job_output.js";
import { shellTool } from "../../tools/chord/shell.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { alive, cleanupAll, makeHarness, marker, named, noBwrap, until, type SandboxHarness } from "./support.js";

let t: TestToolContext;
let h: SandboxHarness;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.background_enabled = true;
  });
  h = makeHarness();
  t.ctx.jobs = h.manager;
  t.ctx.cwd = h.project;
});
afterEach(async () => {
  await cleanupAll();
  await t.cleanup();
});

const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
const jobIn = (text: string) => /background job (j\d+)/.exec(text)?.[1] ?? "";

describe.skipIf(noBwrap)("a sandboxed job owns its process group (real bwrap)", () => {
  it("keeps a nohup'd process running until it exits, as a job", async () => {
    const r = await call(shellTool, {
      command: "nohup sh -c 'sleep 1; echo finished > done.txt' > /dev/null 2>&1 & echo started",
      yield_time_ms: 30_000,
    });
    expect(r.modelText).toMatch(/^\[background job j\d+\] the command exited, but processes it started still run: they continue as background job j\d+\.\nstarted\n/);
    expect(fs.existsSync(path.join(h.project, "done.txt"))).toBe(false);
    const done = await call(jobOutputTool, { job_id: jobIn(r.modelText), wait: "exit" });
    expect(done.modelText).toBe("[status: completed (exit code 0)]");
    expect(fs.readFileSync(path.join(h.project, "done.txt"), "utf8")).toBe("finished\n");
  });

  it("stops what the command left running at job_kill", async () => {
    const m = marker("nohup-kill");
    const r = await call(shellTool, { command: `nohup bash -c 'exec -a ${m} sleep 300' > /dev/null 2>&1 & echo started`, yield_time_ms: 30_000 });
    const id = jobIn(r.modelText);
    expect(id).not.toBe("");
    expect(await until(() => named(m).length === 1)).toBe(true);
    const killed = await call(jobKillTool, { job_id: id, reason: "test over" });
    expect(killed.modelText).toBe(`job ${id} stopping (test over); it has stopped\n[status: killed (test over)]`);
    expect(alive(m)).toEqual([]);
  });

  it("stops what the command left running when the session ends", async () => {
    const m = marker("nohup-end");
    const r = await call(shellTool, { command: `nohup bash -c 'exec -a ${m} sleep 300' > /dev/null 2>&1 & echo started`, yield_time_ms: 30_000 });
    expect(jobIn(r.modelText)).not.toBe("");
    expect(await until(() => named(m).length === 1)).toBe(true);
    await h.manager.shutdown();
    expect(alive(m)).toEqual([]);
  });

  it("Yuj bash without background work stops what the command left behind, and says so", async () => {
    t.ctx.config.tools.background_enabled = false;
    const m = marker("nohup-yuj");
    const r = await call(bashTool, { cmd: `nohup bash -c 'exec -a ${m} sleep 300' > /dev/null 2>&1 & echo started` });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe("started\n[processes the command left running in the background were stopped; background work is disabled]");
    expect(alive(m)).toEqual([]);
  });

  it("ends a plain command with its own status, nothing left over", async () => {
    const r = await call(shellTool, { command: "echo hi; exit 3" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe("hi\n[status: failed (exit code 3)]\nThe command failed with exit code 3.");
  });
});
