// Two sessions in one process — a parent and an agent it starts, each with
// its own controller — keep what they remember apart: which files the model
// read whole (Chord's write gate), how often it polled a job, and what the
// conversation log holds. They share what a parent and its agent would: the
// project, the session folder, the job manager. Real tools, real files, real
// jobs; only the model is scripted.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import type { CoreEvent } from "../../core/events.js";
import { HISTORY_FILE } from "../../core/history-log.js";
import { createJobManager } from "../../core/jobs/manager.js";
import { readSession } from "../../core/session-state.js";
import { controlledSession, type ControlledSession } from "../support/controller-harness.js";
import { chordToolset, tempDemoRepo } from "../support/loop-harness.js";

const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, arguments: args }] });
const said = { text: "ok" };

const opened: ControlledSession[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

function open(turns: unknown[], opts: Parameters<typeof controlledSession>[1]): ControlledSession {
  const s = controlledSession(turns, opts);
  opened.push(s);
  return s;
}

/** Sends one message and waits for the run it starts to end. */
async function run(s: ControlledSession, text: string): Promise<void> {
  s.controller.submit({ type: "user_message", text });
  await s.controller.idle();
}

const resultTexts = (events: CoreEvent[]) => events.flatMap((e) => (e.type === "tool_result" ? [e.modelText] : []));

describe("two sessions in one process", () => {
  it("do not share Chord's read grants, even over one project and one session folder", async () => {
    const cwd = tempDemoRepo();
    const dir = mkdtempSync(join(tmpdir(), "yuj-shared-session-"));
    writeFileSync(join(cwd, "notes.txt"), "first\n");
    const toolset = chordToolset(defaultConfig());
    const parent = open([call("read", { path: "notes.txt" }), said, call("write", { path: "notes.txt", content: "by parent\n" }), said], { cwd, dir, toolset });
    const agent = open([call("write", { path: "notes.txt", content: "by agent\n" }), said], { cwd, dir, toolset });

    await run(parent, "read the notes");
    await run(agent, "replace the notes");
    // The agent never read the file: the parent's read is not its grant.
    expect(resultTexts(agent.events)[0]).toMatch(/^write refused: notes.txt exists and has not been read in full in this session/);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("first\n");

    await run(parent, "now replace them");
    expect(resultTexts(parent.events)[1]).toMatch(/^Successfully wrote /);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("by parent\n");
  });

  it("count their own empty polls of a job they both see", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yuj-shared-session-"));
    const jobs = createJobManager({ sessionDir: dir, emit: (body) => ({ ...body, seq: 0, ts: "", sessionId: "s", agentId: "main" }) as CoreEvent });
    const toolset = chordToolset(defaultConfig());
    const poll = call("job_output", { job_id: "j1" });
    const parent = open([call("shell", { command: "sleep 30", run_in_background: true }), poll, poll, said], { dir, toolset, jobs });
    const agent = open([poll, said], { dir, toolset, jobs });

    await run(parent, "start it and poll twice");
    const parentReads = resultTexts(parent.events).slice(1);
    expect(parentReads[1]).toMatch(/\[notice\] no new output across 2 consecutive non-blocking reads; stop polling/);
    await run(agent, "look at the job");
    // The agent's first look is its first: not the parent's third, refused.
    const [first] = resultTexts(agent.events);
    expect(first).toBe("[status: running]");
    expect(first).not.toMatch(/polling/);
    await jobs.shutdown();
  });

  it("hand out call ids that no earlier run of the session, or another session, handed out", async () => {
    // Frozen at one millisecond: the runs start "at once", as a queued message's run follows the last.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
    try {
      // The model repeats an id within its turn: yuj gives the second call one of its own.
      const twice = { tool_calls: [{ id: "dup", name: "bash", arguments: { cmd: "echo a" } }, { id: "dup", name: "bash", arguments: { cmd: "echo b" } }] };
      const dir = mkdtempSync(join(tmpdir(), "yuj-shared-session-"));
      const one = open([twice, said, twice, said], { dir });
      const other = open([twice, said], { dir });
      await run(one, "first");
      await run(one, "second");
      await run(other, "third");
      const made = [one, other].flatMap((s) => s.events.flatMap((e) => (e.type === "tool_result" && e.callId !== "dup" ? [e.callId] : [])));
      expect(made).toHaveLength(3);
      expect(new Set(made).size).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leave the conversation log's writer alone when one reads the other's folder", async () => {
    const writer = open([said, said], {});
    const records = () =>
      readFileSync(join(writer.dir, HISTORY_FILE), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { at: number; items: unknown[] });
    await run(writer, "one");
    const before = records().length;
    // Another session in this process looks at the writer's folder (a
    // listing, a parent reading an agent's conversation).
    expect(readSession(writer.dir)!.state.history).toHaveLength(2);
    await run(writer, "two");
    // Each step of the second run appended itself; none wrote the conversation over.
    expect(records().slice(before).map((r) => r.at)).toEqual([2, 3]);
  });
});
