// One process per session. Two `yuj resume` of one session started at the
// same moment: one runs it, the other is refused with the pid of the first,
// and no step runs twice. While a process holds the session, every command
// that would change it (resume, answer, approve, the TUI) is refused the same
// way and `yuj status` says "running (pid N)"; the moment the holder is
// killed the session is free again, whatever stale pid its files still name.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli, waitUntil, type CliResult } from "../support/cli.js";
import { onlySessionDir, scriptedProject, statusJson, type ScriptedProject, type Turn } from "../support/durable-session.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

const MARKER = "marker.txt";
const RELEASE = "release";
const turns: Turn[] = [
  { tool_calls: [{ name: "bash", arguments: { cmd: `sh -c 'echo first' >> ${MARKER}; sleep 30` } }] },
  // The second command runs until the test lets it end (the file RELEASE
  // exists), so "while one runs" holds however slow the machine is.
  { tool_calls: [{ name: "bash", arguments: { cmd: `sh -c 'echo second' >> ${MARKER}; until [ -e ${RELEASE} ]; do sleep 0.05; done` } }] },
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

const lines = (p: ScriptedProject) => readFileSync(join(p.cwd, MARKER), "utf8").split("\n").filter(Boolean);
const busy = /^yuj: session (\d{8}-\d{6}-[0-9a-z]{6}) is in use by yuj process (\d+); wait for it to end or stop it \(kill \2\); `yuj status \1` shows it meanwhile\n$/;

/**
 * A session whose run was killed mid-command: stored as running, no process
 * left. With `hold`, a resumed run stays in its second command until killed.
 */
async function interruptedSession(hold = false): Promise<{ p: ScriptedProject; id: string }> {
  const p = scriptedProject(turns);
  const run = startCli(["code", "two steps", ...p.flags], { cwd: p.cwd, env: p.env });
  await waitUntil(() => {
    try {
      return lines(p).length === 1;
    } catch {
      return false;
    }
  }, "the first command to run");
  run.child.kill("SIGKILL");
  await run.done;
  const status = await statusJson(p);
  expect(status.status).toBe("interrupted");
  if (!hold) writeFileSync(join(p.cwd, RELEASE), "");
  return { p, id: status.id };
}

let tui: TmuxApp | undefined;
afterEach(() => {
  tui?.kill();
  tui = undefined;
});

describe("two processes on one session", () => {
  it("two resumes at the same moment: one runs, the other is refused with its pid, no step runs twice", async () => {
    const { p, id } = await interruptedSession();
    const a = startCli(["resume", id], { cwd: p.cwd, env: p.env });
    const b = startCli(["resume", id], { cwd: p.cwd, env: p.env });
    const [ra, rb] = await Promise.all([a.done, b.done]);
    const refused = [ra, rb].filter((r) => r.code === 2);
    expect(refused, `${ra.stderr}\n${rb.stderr}`).toHaveLength(1);
    const winner = ra.code === 2 ? b : a;
    expect(refused[0]!.stderr).toMatch(busy);
    expect(Number(busy.exec(refused[0]!.stderr)![2])).toBe(winner.child.pid);
    expect([ra, rb].filter((r) => r.code === 0)).toHaveLength(1);
    expect(lines(p)).toEqual(["first", "second"]);
    expect(await statusJson(p)).toMatchObject({ status: "done" });
  }, 60_000);

  it("while one runs: status names its pid, the others are refused; killed, it frees the session at once", async () => {
    const { p, id } = await interruptedSession(true);
    const holder = startCli(["resume", id], { cwd: p.cwd, env: p.env });
    await waitUntil(() => lines(p).length === 2, "the resumed run's command");
    const pid = holder.child.pid!;

    const status = await statusJson(p);
    expect(status).toMatchObject({ status: "running", pid });
    expect((await runCli(["status"], { cwd: p.cwd, env: p.env })).stdout).toMatch(new RegExp(`^status +running \\(pid ${pid}\\)$`, "m"));
    const listed = JSON.parse((await runCli(["sessions", "--output", "json"], { cwd: p.cwd, env: p.env })).stdout);
    expect(listed[0]).toMatchObject({ id, status: "running" });
    const expectBusy = (res: CliResult) => {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(busy);
      expect(res.stderr).toContain(`yuj process ${pid}`);
    };
    expectBusy(await runCli(["resume", id], { cwd: p.cwd, env: p.env }));
    expectBusy(await runCli(["resume", id, "something else"], { cwd: p.cwd, env: p.env }));
    expectBusy(await runCli(["answer", id, "yes"], { cwd: p.cwd, env: p.env }));
    expectBusy(await runCli(["approve", id], { cwd: p.cwd, env: p.env }));
    expectBusy(await runCli(["reject", id], { cwd: p.cwd, env: p.env }));
    const inTui = await runCli(["--resume", id], { cwd: p.cwd, env: p.env });
    expect(inTui.code).toBe(2);
    expect(inTui.stderr).toContain(`it is running in process ${pid}`);

    holder.child.kill("SIGKILL");
    await holder.done;
    // No wait and no clean-up: the kernel let the lock go with the process.
    expect((await statusJson(p)).status).toBe("interrupted");
    writeFileSync(join(p.cwd, RELEASE), "");
    const after = await runCli(["resume", id], { cwd: p.cwd, env: p.env });
    expect(after.code, after.stderr).toBe(0);
    expect(lines(p)).toEqual(["first", "second"]); // the killed command is closed as interrupted, not run again
  }, 60_000);

  it("a stale pid in the session's files (a process that is not yuj) neither blocks it nor shows it running", async () => {
    const { p, id } = await interruptedSession();
    const dir = onlySessionDir(p.env);
    // The pid of a live process that holds nothing: this test's own.
    for (const file of ["session.json", "state.json", "lock.pid"]) {
      const path = join(dir, file);
      const text = readFileSync(path, "utf8");
      writeFileSync(path, file === "lock.pid" ? `${process.pid}\n` : text.replace(/"pid": \d+/, `"pid": ${process.pid}`));
    }
    expect((await statusJson(p)).status).toBe("interrupted");
    const res = await runCli(["resume", id], { cwd: p.cwd, env: p.env });
    expect(res.code, res.stderr).toBe(0);
    expect(lines(p)).toEqual(["first", "second"]);
  }, 60_000);

  it("the TUI holds a session it shows: a headless resume is refused with its pid until it quits", async () => {
    const { p, id } = await interruptedSession();
    tui = startTui({ cwd: p.cwd, env: { ...p.env, TERM: "xterm-256color" }, args: ["--resume", id] });
    await tui.waitFor(`Resumed session ${id}`, 20_000);
    const status = await statusJson(p);
    expect(status.status).toBe("running");
    const refused = await runCli(["resume", id], { cwd: p.cwd, env: p.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(busy);
    expect(refused.stderr).toContain(`yuj process ${status.pid}`);
    tui.keys("Escape");
    await tui.waitFor("NORMAL");
    tui.keys("C-c");
    await tui.waitFor("press again to quit");
    tui.keys("C-c");
    await waitUntil(() => tui!.paneDead(), "the TUI to quit");
    const after = await runCli(["resume", id, "go on"], { cwd: p.cwd, env: p.env });
    expect(after.code, after.stderr).toBe(0);
  }, 90_000);
});
