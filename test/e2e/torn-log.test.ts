// A torn log line loses nothing after it. The built yuj runs a task of many
// steps with its state home on a real tmpfs, once at each of 100 sizes, so
// the disk fills at 100 different points of the run (short writes of the
// conversation log and the trace among them); the tmpfs is then grown, the
// session resumed to its end and resumed again with a new message. And a
// run is killed with SIGKILL and its logs torn the way a kill mid-append
// leaves them, then resumed twice. Each time the steps are counted: none
// lost, none repeated, every result that was reported still there.

import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INTERRUPTED_TEXT } from "../../core/interrupted.js";
import { runCli, startCli, waitUntil, type CliResult } from "../support/cli.js";
import {
  cleanStderr,
  jsonLines,
  mountTmpfs,
  scriptedProject,
  sessionFolders,
  stateIn,
  onlySessionDir,
  type ScriptedProject,
  type Turn,
} from "../support/durable-session.js";

const STEPS = 24;
const MARKER = "marker.txt";
// Each step leaves a trace (the request and response bodies), a log line and a job's output.
const stepTurns = (extra = ""): Turn[] => [
  ...Array.from({ length: STEPS }, (_, i) => ({ tool_calls: [{ name: "bash", arguments: { cmd: `sh -c 'echo ${i}' >> ${MARKER}; seq 1 150${extra}` } }] })),
  { tool_calls: [{ name: "done", arguments: { message: "all steps done" } }] },
];
const turns = stepTurns();

const mounts: Array<{ unmount(): void }> = [];
afterAll(() => {
  for (const m of mounts) m.unmount();
});

/** Reported results: the tool_result events a run printed (each one was saved before it was printed). */
function reported(res: CliResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of jsonLines(res.stdout)) if (e.type === "tool_result") out.set(e.callId, e.modelText);
  return out;
}

/**
 * The count: the conversation holds the task, each scripted call once with
 * one result, the finish, the second message and its answer; each command
 * ran at most once, and one that did not run is one the resume closed as
 * interrupted; every reported result is the saved one.
 */
function expectNothingLost(p: ScriptedProject, dir: string, printed: Map<string, string>): void {
  const history = stateIn(dir).history;
  const calls = history.flatMap((h) => (h.role === "assistant" ? h.toolCalls.map((c) => c.id) : []));
  expect(calls).toEqual([...Array.from({ length: STEPS }, (_, i) => `call_${i}_0`), `call_${STEPS}_0`]);
  const results = new Map<string, string[]>();
  for (const h of history) if (h.role === "tool") results.set(h.callId, [...(results.get(h.callId) ?? []), h.text]);
  for (const id of calls) expect(results.get(id), `results of ${id}`).toHaveLength(1);
  expect(history.filter((h) => h.role === "user").map((h) => (h as { text: string }).text)).toEqual(["do the steps", "again"]);
  expect(history.at(-1)).toMatchObject({ role: "assistant", text: "Nothing more to do." });

  let ran: string[] = [];
  try {
    ran = readFileSync(join(p.cwd, MARKER), "utf8").split("\n").filter(Boolean);
  } catch {
    // no command ran in the first run, and the resume closed none
  }
  expect(new Set(ran).size, `a command ran twice: ${ran.join(" ")}`).toBe(ran.length);
  for (let i = 0; i < STEPS; i++) {
    const result = results.get(`call_${i}_0`)![0]!;
    if (!ran.includes(String(i))) expect(result, `step ${i} did not run`).toBe(INTERRUPTED_TEXT);
  }
  for (const [id, text] of printed) expect(results.get(id), `reported result of ${id}`).toEqual([text]);
}

/** Resumed to the end (unless the run got there), then again with a new message; both succeed on a roomy disk. */
async function resumeTwice(p: ScriptedProject, finished = false, check?: (first: CliResult) => void): Promise<Map<string, string>> {
  const first = finished ? undefined : await runCli(["resume", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
  if (first) {
    cleanStderr(first);
    expect(first.code, first.stderr).toBe(0);
    check?.(first);
  }
  const second = await runCli(["resume", "again", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
  cleanStderr(second);
  expect(second.code, second.stderr).toBe(0);
  return first ? reported(first) : new Map();
}

async function fullDiskAt(bytes: number): Promise<string> {
  const disk = mountTmpfs(bytes);
  mounts.push(disk);
  const p = scriptedProject(turns, { stateHome: disk.dir });
  const run = await runCli(["code", "do the steps", ...p.flags, "--output", "jsonl"], { cwd: p.cwd, env: p.env });
  const said = cleanStderr(run);
  expect([0, 1], run.stderr).toContain(run.code);
  if (run.code === 1) expect(said[0]).toMatch(/^yuj: could not (save|write|create|open) /);
  disk.resize(64 * 1024 * 1024);
  // Never half-made: no session folder, or one that resumes.
  const folders = sessionFolders(p.env).filter((n) => !n.startsWith("."));
  if (folders.length === 0) return "no session";
  const printed = reported(run);
  for (const [id, text] of await resumeTwice(p, run.code === 0)) if (!printed.has(id)) printed.set(id, text);
  expectNothingLost(p, onlySessionDir(p.env), printed);
  return `failed at ${said[0]?.slice(0, 40) ?? "nothing"}`;
}

describe("a log line torn by a full disk", () => {
  it("loses no step at 100 sizes of the disk: the run stops cleanly, two resumes finish it", async () => {
    // From too small to create the session to about what the whole run needs, 100 page counts apart.
    const sizes = Array.from({ length: 100 }, (_, i) => 8 * 1024 + i * 5632);
    const outcomes: string[] = [];
    // A few at a time: each size is three processes.
    for (let i = 0; i < sizes.length; i += 4) {
      const batch = sizes.slice(i, i + 4);
      outcomes.push(...(await Promise.all(batch.map((size) => fullDiskAt(size).then((o) => `${size}: ${o}`)))));
    }
    // The disk filled during the run for most sizes, not only before it began.
    expect(outcomes.filter((o) => o.includes("failed at yuj: could not")).length).toBeGreaterThan(80);
  }, 600_000);
});

describe("a log line torn by a kill mid-append", () => {
  it("is skipped, and the steps after it are kept: resumed twice, nothing is lost", async () => {
    // Slow enough steps that the kill falls mid-run.
    const p = scriptedProject(stepTurns("; sleep 0.1"));
    const run = startCli(["code", "do the steps", ...p.flags, "--output", "jsonl"], { cwd: p.cwd, env: p.env });
    const marker = join(p.cwd, MARKER);
    await waitUntil(() => {
      try {
        return readFileSync(marker, "utf8").split("\n").length > 6;
      } catch {
        return false;
      }
    }, "a few steps to run");
    run.child.kill("SIGKILL");
    const killed = await run.done;
    const dir = onlySessionDir(p.env);
    // What a kill in the middle of an append leaves: the first part of one more line, without its end.
    for (const file of ["history.jsonl", "trace.jsonl"]) {
      const path = join(dir, file);
      const text = readFileSync(path, "utf8");
      const last = text.slice(text.lastIndexOf("\n", text.length - 2) + 1, -1);
      appendFileSync(path, last.slice(0, Math.floor(last.length / 2)));
    }
    const torn = stateIn(dir).history.length;
    // The torn line is said, not hidden: in `yuj show` and as the resume's first notice.
    const shown = JSON.parse((await runCli(["show", "--output", "json"], { cwd: p.cwd, env: p.env })).stdout);
    expect(shown.damaged).toEqual([expect.stringMatching(/^history\.jsonl line \d+: cut short \(the writer stopped mid-line\); skipped$/)]);
    const printed = reported(killed);
    for (const [id, text] of await resumeTwice(p, false, (first) => {
      const notice = jsonLines(first.stdout).find((e) => e.type === "notice");
      expect(notice.text).toMatch(/^history\.jsonl line \d+ was skipped: cut short/);
    })) printed.set(id, text);
    expectNothingLost(p, dir, printed);
    expect(stateIn(dir).history.length).toBeGreaterThan(torn);
    // The trace reads on past its torn row too: the second resume's rows follow it.
    const rows = jsonLines(readFileSync(join(dir, "trace.jsonl"), "utf8"));
    expect(rows.filter((r) => r.type === "session_started")).toHaveLength(3);
    expect(rows.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
  }, 60_000);
});
