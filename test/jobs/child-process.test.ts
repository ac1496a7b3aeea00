// Jobs must not outlive yuj: a separate node process stands in for yuj
// (test/jobs/fixtures/child.ts), and these tests end it in every way.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { reapOrphans, registryPath } from "../../core/jobs/orphans.js";
import { readStartTime } from "../../core/jobs/proc.js";
import { liveMembers, until } from "./support.js";

const CHILD = path.join(import.meta.dirname, "fixtures", "child.ts");
const ROOT = path.join(import.meta.dirname, "..", "..");

interface Run {
  child: ChildProcess;
  pgids: number[];
  sessionDir: string;
  stateDir: string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: Run[] = [];
const strays: number[] = [];
afterEach(() => {
  for (const run of runs.splice(0)) {
    run.child.kill("SIGKILL");
    for (const pgid of run.pgids) killGroup(pgid);
    fs.rmSync(path.dirname(run.sessionDir), { recursive: true, force: true });
  }
  for (const pgid of strays.splice(0)) killGroup(pgid);
});

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function startChild(mode: string): Promise<Run> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-child-"));
  const sessionDir = path.join(base, "session");
  const stateDir = path.join(base, "state");
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, sessionDir, stateDir, mode], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const run: Run = { child, pgids: [], sessionDir, stateDir, stderr: () => err, exit };
  runs.push(run);
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    void exit.then(() => reject(new Error(`child exited early: ${err}`)));
  });
  run.pgids = (JSON.parse(line) as { pgids: number[] }).pgids;
  return run;
}

const allGone = (pgids: number[]) => pgids.every((p) => liveMembers(p).length === 0);

describe("orphans: surviving a SIGKILL of yuj", () => {
  it("reaps the jobs of a yuj that was SIGKILLed, once", async () => {
    const run = await startChild("idle");
    expect(run.pgids.every((p) => liveMembers(p).length > 0)).toBe(true);
    const pointers = fs.readdirSync(path.join(run.stateDir, "running"));
    expect(pointers).toHaveLength(1);
    const registry = JSON.parse(fs.readFileSync(registryPath(run.sessionDir), "utf8")) as unknown[];
    expect(registry).toHaveLength(2);

    // Alive owner: nothing is touched.
    expect(await reapOrphans(run.stateDir)).toEqual([]);

    run.child.kill("SIGKILL");
    await run.exit;
    expect(run.pgids.every((p) => liveMembers(p).length > 0)).toBe(true); // orphans now

    const reaped = await reapOrphans(run.stateDir, { graceMs: 300 });
    expect(reaped.map((r) => r.pgid).sort()).toEqual([...run.pgids].sort());
    expect(reaped.every((r) => r.action === "killed" && r.sessionDir === run.sessionDir)).toBe(true);
    expect(reaped.map((r) => r.command).sort()).toEqual(["sleep 300", "sleep 300 & echo started"]);
    expect(await until(() => allGone(run.pgids), 2000)).toBe(true);
    expect(fs.readdirSync(path.join(run.stateDir, "running"))).toEqual([]);

    expect(await reapOrphans(run.stateDir)).toEqual([]);
  });

  it("never signals a group it cannot prove is the old job's", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-orph-"));
    const sessionDir = path.join(base, "session");
    const stateDir = path.join(base, "state");
    // A stranger's group, recorded with the wrong start times.
    const stranger = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const pgid = stranger.pid!;
    strays.push(pgid);
    const start = readStartTime(pgid)!;
    fs.mkdirSync(path.join(sessionDir, "jobs"), { recursive: true });
    fs.mkdirSync(path.join(stateDir, "running"), { recursive: true });
    const entry = {
      jobId: "j1",
      pgid,
      leaderStartTime: start + 1,
      members: [{ pid: pgid, startTime: start - 1 }],
      command: "sleep 30",
      yujPid: 999_999_999, // no such process: the owner is dead
    };
    fs.writeFileSync(registryPath(sessionDir), JSON.stringify([entry]));
    fs.writeFileSync(path.join(stateDir, "running", "999999999.json"), JSON.stringify({ yujPid: 999_999_999, sessionDir }));

    const reaped = await reapOrphans(stateDir, { graceMs: 100 });
    expect(reaped).toEqual([{ kind: "group", pgid, command: "sleep 30", sessionDir, action: "gone" }]);
    expect(liveMembers(pgid)).toEqual([pgid]);
    stranger.kill("SIGKILL");
    fs.rmSync(base, { recursive: true, force: true });
  });
});

describe("exit hooks", () => {
  it("SIGTERM: shuts the jobs down, then exits 143", async () => {
    const run = await startChild("hooks");
    run.child.kill("SIGTERM");
    expect(await run.exit).toEqual({ code: 143, signal: null });
    expect(allGone(run.pgids)).toBe(true);
    expect(fs.readdirSync(path.join(run.stateDir, "running"))).toEqual([]);
  });

  it("SIGHUP exits 129 and SIGINT exits 130", async () => {
    const hup = await startChild("hooks");
    const int = await startChild("hooks");
    hup.child.kill("SIGHUP");
    int.child.kill("SIGINT");
    expect((await hup.exit).code).toBe(129);
    expect((await int.exit).code).toBe(130);
    expect(allGone([...hup.pgids, ...int.pgids])).toBe(true);
  });

  it("process.exit(): the 'exit' hook kills every group", async () => {
    const run = await startChild("exit");
    expect((await run.exit).code).toBe(0);
    expect(await until(() => allGone(run.pgids), 2000)).toBe(true);
  });

  it("an uncaught exception kills every group, prints it, exits 1", async () => {
    const run = await startChild("throw");
    expect((await run.exit).code).toBe(1);
    expect(run.stderr()).toMatch(/yuj: fatal: Error: boom/);
    expect(await until(() => allGone(run.pgids), 2000)).toBe(true);
  });

  it("composes with the app's own SIGINT handler", async () => {
    const run = await startChild("hooks-no-sigint");
    run.child.kill("SIGINT");
    expect((await run.exit).code).toBe(130);
    expect(await until(() => allGone(run.pgids), 2000)).toBe(true);
  });
});
