// A run killed during start-up is found and resumed, or cleanly absent:
// never half-made. The built yuj is killed with SIGKILL at many moments of
// its start-up (after a delay, and as each of its files appears); then
// `yuj sessions`, `yuj status` and `yuj resume` must each behave: no session
// folder that nothing lists, and a listed session that resumes to its end
// with its one command run once.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";
import { cleanStderr, scriptedProject, sessionFolders, sessionsRoot, type ScriptedProject } from "../support/durable-session.js";

const turns = [
  { tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo ran' >> marker.txt" } }] },
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

type KillAt = { afterMs: number } | { when: string; test: (root: string) => boolean };

function firstRow(root: string, type: string): boolean {
  for (const id of existsSync(root) ? readdirSync(root) : []) {
    const trace = join(root, id, "trace.jsonl");
    if (existsSync(trace) && readFileSync(trace, "utf8").includes(`"type":"${type}"`)) return true;
  }
  return false;
}

const has = (root: string, test: (name: string) => boolean, file?: string) =>
  existsSync(root) && readdirSync(root).some((n) => test(n) && (!file || existsSync(join(root, n, file))));

const MARKERS: KillAt[] = [
  { when: "the sessions folder appears", test: (root) => existsSync(root) },
  { when: "the session is being put together", test: (root) => has(root, (n) => n.startsWith(".")) },
  { when: "the session folder appears", test: (root) => has(root, (n) => !n.startsWith(".")) },
  { when: "the trace is opened", test: (root) => has(root, (n) => !n.startsWith("."), "trace.jsonl") },
  { when: "session_started is written", test: (root) => firstRow(root, "session_started") },
  { when: "the workspace snapshot is written", test: (root) => firstRow(root, "workspace_snapshot") },
  { when: "the task is in the trace", test: (root) => firstRow(root, "user_message") },
];

/**
 * Kill delays spread from 0 to 1.5 times the time this machine takes, right
 * now, until the session folder appears: fixed delays would all fall before
 * it on a loaded machine (or all after it on a fast one).
 */
async function delaysAcrossStartUp(): Promise<KillAt[]> {
  const p = scriptedProject(turns, { git: true });
  const root = sessionsRoot(p.env);
  const started = Date.now();
  const run = startCli(["code", "start and stop", ...p.flags], { cwd: p.cwd, env: p.env });
  while (run.child.exitCode === null && !has(root, (n) => !n.startsWith("."))) await new Promise((r) => setImmediate(r));
  const untilSession = Date.now() - started;
  await run.done;
  return Array.from({ length: 26 }, (_, i) => ({ afterMs: Math.round((i * 1.5 * untilSession) / 25) }));
}

async function killDuringStart(at: KillAt): Promise<ScriptedProject> {
  const p = scriptedProject(turns, { git: true });
  const root = sessionsRoot(p.env);
  const run = startCli(["code", "start and stop", ...p.flags], { cwd: p.cwd, env: p.env });
  if ("afterMs" in at) {
    await new Promise((r) => setTimeout(r, at.afterMs));
  } else {
    // Polled as fast as the event loop turns: the kill lands right after the file appears.
    while (run.child.exitCode === null && !at.test(root)) await new Promise((r) => setImmediate(r));
  }
  run.child.kill("SIGKILL");
  await run.done;
  return p;
}

/**
 * The command ran exactly once, or, when the kill fell while it ran, the
 * resume gave it the interrupted result instead of running it again: then it
 * may have run once or not at all, never twice.
 */
function expectRanOnce(p: ScriptedProject, at: string): void {
  const marker = join(p.cwd, "marker.txt");
  const ran = existsSync(marker) ? readFileSync(marker, "utf8") : "";
  const interrupted = sessionFolders(p.env).some((id) => {
    const trace = join(sessionsRoot(p.env), id, "trace.jsonl");
    return existsSync(trace) && readFileSync(trace, "utf8").includes("ERROR: interrupted");
  });
  if (interrupted) expect(["", "ran\n"], at).toContain(ran);
  else expect(ran, at).toBe("ran\n");
}

async function expectWholeOrAbsent(p: ScriptedProject, at: string): Promise<string> {
  const listed = await runCli(["sessions", "--output", "json"], { cwd: p.cwd, env: p.env });
  expect(listed.code, listed.stderr).toBe(0);
  const sessions = JSON.parse(listed.stdout) as Array<{ id: string; status: string }>;
  // Never half-made: every session folder is listed (a folder being put together is hidden and never listed).
  expect(sessionFolders(p.env).filter((n) => !n.startsWith(".")), at).toEqual(sessions.map((s) => s.id));
  const status = await runCli(["status", "--output", "json"], { cwd: p.cwd, env: p.env });
  const resume = await runCli(["resume"], { cwd: p.cwd, env: p.env });
  cleanStderr(resume);
  if (sessions.length === 0) {
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^yuj: no session in /);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/^yuj: no session in /);
    expect(existsSync(join(p.cwd, "marker.txt"))).toBe(false);
    return "absent";
  }
  expect(sessions).toHaveLength(1);
  const shown = JSON.parse(status.stdout);
  if (shown.status === "done") {
    // Killed as it ended: nothing to resume, and the command ran once.
    expect(resume.code).toBe(2);
    expectRanOnce(p, at);
    return "done";
  } else {
    expect(shown.status, at).toBe("interrupted");
    expect(shown.next.command).toBe(`yuj resume ${sessions[0]!.id}`);
    expect(resume.code, `${at}: ${resume.stderr}`).toBe(0);
  }
  expectRanOnce(p, at);
  const after = JSON.parse((await runCli(["status", "--output", "json"], { cwd: p.cwd, env: p.env })).stdout);
  // "answered" when the kill fell after the finish call was saved but before its result.
  expect(after.status).toBe("done");
  expect(["done", "answered"]).toContain(after.lastReason);
  return "resumed";
}

describe("a run killed during start-up", () => {
  it("is found and resumed, or cleanly absent, at every marker of its start-up", async () => {
    for (const at of MARKERS) await expectWholeOrAbsent(await killDuringStart(at), "when" in at ? at.when : "");
  }, 120_000);

  it("is found and resumed, or cleanly absent, killed anywhere in its first moments", async () => {
    const seen: string[] = [];
    for (const at of await delaysAcrossStartUp()) seen.push(await expectWholeOrAbsent(await killDuringStart(at), `after ${(at as { afterMs: number }).afterMs} ms`));
    // The delays span the start-up: some kills come before the session exists, some after.
    expect(seen).toContain("absent");
    expect(seen).toContain("resumed");
  }, 120_000);
});
