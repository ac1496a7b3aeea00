// Storage errors and a closed stdout end a run the documented way: an
// `error` event, a one-line reason on stderr, exit status 1, and the status
// saved, or one line saying it could not be, never a stack trace. The
// failures are real: /dev/full (always full) in place of a log, a session
// folder bind-mounted read-only, and a `head` that closes the pipe.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, yujBin } from "../support/cli.js";
import { cleanStderr, jsonLines, onlySessionDir, scriptedProject, statusJson, traceOf, type ScriptedProject, type Turn } from "../support/durable-session.js";

const steps = (n: number, extra = ""): Turn[] => [
  ...Array.from({ length: n }, (_, i) => ({ tool_calls: [{ name: "bash", arguments: { cmd: `sh -c 'echo ${i}' >> marker.txt${extra}` } }] })),
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

/** A session paused for an approval (or a question): nothing runs until it is resumed. */
async function pausedSession(on: "approval" | "question" = "approval"): Promise<{ p: ScriptedProject; dir: string }> {
  const first = on === "approval" ? { name: "bash", arguments: { cmd: "rm -f nothing.txt" } } : { name: "ask_user", arguments: { question: "Which one?" } };
  const p = scriptedProject([{ tool_calls: [first] }, ...steps(1)]);
  const paused = await runCli(["code", "clean up", ...p.flags], { cwd: p.cwd, env: p.env });
  expect(paused.code, paused.stderr).toBe(on === "approval" ? 3 : 4);
  return { p, dir: onlySessionDir(p.env) };
}

function mountReadOnly(dir: string): void {
  execFileSync("mount", ["--bind", dir, dir]);
  mounted.push(dir);
  execFileSync("mount", ["-o", "remount,bind,ro", dir]);
}

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync("umount", [dir]);
});

describe("a log that cannot be written", () => {
  it("the trace: the run stops at its next step with the error event, exit 1, and the status saved as failed", async () => {
    const { p, dir } = await pausedSession();
    expect((await runCli(["approve"], { cwd: p.cwd, env: p.env })).code).toBe(0);
    rmSync(join(dir, "trace.jsonl"));
    symlinkSync("/dev/full", join(dir, "trace.jsonl"));
    const res = await runCli(["resume", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
    expect(res.code).toBe(1);
    expect(cleanStderr(res)).toEqual([expect.stringMatching(/^yuj: could not write the trace \S+trace\.jsonl \(event session_started #\d+\): ENOSPC: /)]);
    const events = jsonLines(res.stdout);
    expect(events.at(-2)).toMatchObject({ type: "error", code: "state_write" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "error" });
    expect(await statusJson(p)).toMatchObject({ status: "failed", lastReason: "error", lastMessage: expect.stringMatching(/could not write the trace/) });
  });

  it("a full disk: the run stops, and says in one line that the status could not be saved either", async () => {
    const { p, dir } = await pausedSession();
    expect((await runCli(["approve"], { cwd: p.cwd, env: p.env })).code).toBe(0);
    // The session's files on a small tmpfs of their own, filled to the last byte.
    const copy = join(mkdtempSync(join(tmpdir(), "yuj-session-copy-")), "session");
    execFileSync("cp", ["-a", dir, copy]);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", dir]);
    mounted.push(dir);
    execFileSync("cp", ["-a", `${copy}/.`, dir]);
    spawnSync("dd", ["if=/dev/zero", `of=${join(dir, "filler")}`, "bs=4k"], { stdio: "ignore" });
    const res = await runCli(["resume", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
    expect(res.code).toBe(1);
    const lines = cleanStderr(res);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^yuj: could not save the (session to|conversation in) \S+: ENOSPC: /);
    expect(lines[1]).toMatch(/^yuj: the status of session \S+ could not be saved \(could not save .*ENOSPC.*\); yuj resume \S+ continues from its last saved step$/);
    expect(jsonLines(res.stdout).at(-2)).toMatchObject({ type: "error", code: "state_write" });
    expect(jsonLines(res.stdout).at(-1)).toMatchObject({ type: "run_finished", reason: "error" });
    // The stored state is the last one saved: still paused, the approval given, nothing run.
    expect(await statusJson(p)).toMatchObject({ status: "approval_required" });
    expect(existsSync(join(p.cwd, "marker.txt"))).toBe(false); // nothing ran
  });
});

describe("a read-only session folder", () => {
  it("a resume ends with the error event, a one-line reason, exit 1, and says the status could not be saved", async () => {
    const { p, dir } = await pausedSession();
    expect((await runCli(["approve"], { cwd: p.cwd, env: p.env })).code).toBe(0);
    mountReadOnly(dir);
    const res = await runCli(["resume", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
    expect(res.code).toBe(1);
    const lines = cleanStderr(res);
    expect(lines[0]).toMatch(/^yuj: could not save the session to \S+state\.json: EROFS: /);
    expect(lines[1]).toMatch(/^yuj: the status of session \S+ could not be saved/);
    const events = jsonLines(res.stdout);
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "state_write" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "error" });
    expect(existsSync(join(p.cwd, "marker.txt"))).toBe(false); // nothing ran
  });

  it("yuj approve and yuj answer say so in one line with exit 1", async () => {
    const paused = await pausedSession("approval");
    mountReadOnly(paused.dir);
    const approved = await runCli(["approve"], { cwd: paused.p.cwd, env: paused.p.env });
    expect(approved.code).toBe(1);
    expect(cleanStderr(approved)).toEqual([expect.stringMatching(/^yuj: could not save the session to \S+state\.json: EROFS: /)]);
    const asked = await pausedSession("question");
    mountReadOnly(asked.dir);
    const answered = await runCli(["answer", "the first"], { cwd: asked.p.cwd, env: asked.p.env });
    expect(answered.code).toBe(1);
    expect(cleanStderr(answered)).toEqual([expect.stringMatching(/^yuj: could not save the session to \S+state\.json: EROFS: /)]);
    expect(await statusJson(asked.p)).toMatchObject({ status: "input_required" });
  });
});

/** `yuj …` piped into a real `head`; returns yuj's exit status and stderr, and what head let through. */
function throughHead(p: ScriptedProject, args: string[], lines: number) {
  const cmd = `"$0" "$1" "\${@:2}" 2>"$YUJ_ERR" | head -n ${lines}; echo "\${PIPESTATUS[0]}" > "$YUJ_RC"`;
  const err = join(p.cwd, ".stderr");
  const rc = join(p.cwd, ".rc");
  const shown = spawnSync("bash", ["-c", cmd, process.execPath, yujBin, ...args], {
    cwd: p.cwd,
    env: { ...p.env, YUJ_ERR: err, YUJ_RC: rc },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: Number(readFileSync(rc, "utf8")), stderr: readFileSync(err, "utf8"), stdout: shown.stdout };
}

describe("a closed stdout (yuj code … | head)", () => {
  for (const output of ["jsonl", "text"]) {
    it(`stops the run, saves its status, and says why in one line (--output ${output})`, async () => {
      const p = scriptedProject(steps(8, "; sleep 0.2"));
      const res = throughHead(p, ["code", "do the steps", ...p.flags, "--output", output], 3);
      expect(res.stdout.split("\n")).toHaveLength(4); // three lines, then head closed the pipe
      expect(res.code).toBe(1);
      expect(cleanStderr({ code: res.code, stdout: "", stderr: res.stderr })).toEqual(["yuj: stdout was closed by its reader (EPIPE); the run stopped"]);
      const status = await statusJson(p);
      expect(status).toMatchObject({ status: "failed", lastReason: "error", lastMessage: "stdout was closed by its reader (EPIPE); the run stopped" });
      const dir = onlySessionDir(p.env);
      expect(traceOf(dir).find((e) => e.type === "error")).toMatchObject({ code: "output_closed" });
      // And it goes on from there.
      const resumed = await runCli(["resume"], { cwd: p.cwd, env: p.env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const ran = readFileSync(join(p.cwd, "marker.txt"), "utf8").split("\n").filter(Boolean);
      expect(new Set(ran).size).toBe(ran.length);
    }, 60_000);
  }
});
