import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupMembers } from "../../core/jobs/proc.js";
import { cleanupAll, liveMembers, makeHarness, pidAlive, readComm, sleep, until } from "./support.js";
import { fakeClock, type FakeClock } from "../support/fake-clock.js";

// A test on a fake clock hands it back to real time first: the cleanup's kills poll on it.
let clock: FakeClock | undefined;
afterEach(async () => {
  clock?.release();
  clock = undefined;
  await cleanupAll();
});

/** A wait on the fake clock that runs out: the time moved by exactly its length. */
async function timedOut(waiting: Promise<unknown>, ms: number): Promise<unknown> {
  await clock!.advance(ms);
  return waiting;
}

const fg = (command: string, cwd = process.cwd()) => ({ command, cwd, background: false });

describe("job manager: running commands", () => {
  it("runs echo, exits 0, and readNew returns the output once", async () => {
    const { manager, events } = makeHarness();
    const job = manager.start({ ...fg("echo hi"), label: "greet", callId: "c1" });
    expect(job.id).toBe("j1");
    expect(job.status).toBe("running");
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    const read = await manager.readNew(job.id);
    expect(read.text).toBe("hi\n");
    expect(read.newBytes).toBe(3);
    expect(read.omittedBytes).toBe(0);
    expect(read.snapshot).toMatchObject({ status: "exited", exitCode: 0, signal: null, totalBytes: 3 });
    expect((await manager.readNew(job.id)).text).toBe("");

    const types = events.map((e) => e.type);
    expect(types[0]).toBe("job_started");
    expect(types.at(-1)).toBe("job_exited");
    expect(events[0]).toMatchObject({ jobId: "j1", label: "greet", callId: "c1", background: false, pid: job.pid });
    const exited = events.at(-1)!;
    expect(exited).toMatchObject({ type: "job_exited", exitCode: 0, status: "exited" });
    const outputs = events.filter((e) => e.type === "job_output");
    expect(outputs.map((e) => (e as { text: string }).text).join("")).toBe("hi\n");
    expect(fs.readFileSync(job.outputFile, "utf8")).toBe("hi\n");
    expect(job.outputFile).toMatch(/jobs[/\\]j1\.log$/);
  });

  it("reports exit codes and numbers jobs in start order", async () => {
    const { manager } = makeHarness();
    const a = manager.start(fg("exit 3"));
    const b = manager.start(fg("false | true")); // pipefail makes this fail
    expect(b.id).toBe("j2");
    await manager.wait(a.id, "exit", 5000);
    await manager.wait(b.id, "exit", 5000);
    expect(manager.get(a.id)?.exitCode).toBe(3);
    expect(manager.get(b.id)?.exitCode).toBe(1);
  });

  it("keeps stdout and stderr in order in one stream", async () => {
    const { manager } = makeHarness();
    const job = manager.start(fg("echo out1; echo err1 >&2; echo out2; echo err2 >&2"));
    await manager.wait(job.id, "exit", 5000);
    expect((await manager.readNew(job.id)).text).toBe("out1\nerr1\nout2\nerr2\n");
  });

  it("gives stdin EOF, so read returns at once", async () => {
    const { manager } = makeHarness();
    const started = Date.now();
    const job = manager.start(fg('read x; echo "got:$x"'));
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await manager.readNew(job.id)).text).toBe("got:\n");
  });

  it("sets the environment and the working directory", async () => {
    const { manager, dir } = makeHarness({ env: { PATH: process.env.PATH ?? "", BASE: "b" } });
    const job = manager.start({ ...fg('echo "$BASE $EXTRA $PAGER $TERM $NO_COLOR"; pwd', dir), env: { EXTRA: "x" } });
    await manager.wait(job.id, "exit", 5000);
    expect((await manager.readNew(job.id)).text).toBe(`b x cat dumb 1\n${fs.realpathSync(dir)}\n`);
  });

  it("reports a missing cwd as a failed job", async () => {
    const { manager, dir } = makeHarness();
    const job = manager.start(fg("echo never", path.join(dir, "missing")));
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    const read = await manager.readNew(job.id);
    expect(read.text).toMatch(/failed to start bash/);
    expect(read.snapshot.exitCode).toBe(127);
  });

  it("strips escapes and shows control characters in events and reads", async () => {
    const { manager, events } = makeHarness();
    const job = manager.start(fg(String.raw`printf '\033[31mred\033[0m\r\nbell\007 tab\there\n'`));
    await manager.wait(job.id, "exit", 5000);
    expect((await manager.readNew(job.id)).text).toBe("red\nbell␇ tab\there\n");
    const text = events.filter((e) => e.type === "job_output").map((e) => (e as { text: string }).text).join("");
    expect(text).toBe("red\nbell␇ tab\there\n");
  });
});

describe("job manager: the process group", () => {
  it("stays running while a background child lives; kill ends both", async () => {
    const { manager, events } = makeHarness();
    const job = manager.start(fg("sleep 30 & echo started"));
    expect(await until(() => manager.get(job.id)!.leaderExited)).toBe(true);
    await sleep(200);
    const snap = manager.get(job.id)!;
    expect(snap.status).toBe("running");
    expect(snap.exitCode).toBe(0);
    expect(liveMembers(job.pid).length).toBe(1);
    expect(manager.list().map((j) => j.id)).toEqual([job.id]);

    const result = await manager.kill(job.id, "test");
    expect(result.confirmed).toBe(true);
    expect(result.snapshot.status).toBe("killed");
    expect(liveMembers(job.pid)).toEqual([]);
    expect(events.find((e) => e.type === "job_killed")).toMatchObject({ confirmed: true, reason: "test" });
    expect(events.filter((e) => e.type === "job_exited")).toHaveLength(1);
    expect(manager.list()).toEqual([]);
    expect(manager.list({ includeFinished: true })).toHaveLength(1);
  });

  it("ends when the last background child exits on its own", async () => {
    const { manager } = makeHarness();
    const job = manager.start(fg("sleep 0.4 & echo started"));
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    expect(Date.now() - manager.get(job.id)!.startedAt).toBeGreaterThanOrEqual(350);
    expect(manager.get(job.id)?.status).toBe("exited");
  });

  it.each([
    // `; :` keeps the inner bash from exec-ing into sleep, so both ignore TERM.
    ["after the shell exited", `bash -c 'trap "" TERM; sleep 60; :' & echo started`],
    ["while the shell waits", `bash -c 'trap "" TERM; sleep 60; :' & echo started; wait`],
  ])("kills a grandchild that ignores SIGTERM (%s)", async (_name, command) => {
    const { manager } = makeHarness({ killGraceMs: 300 });
    const job = manager.start(fg(command));
    // Wait until the inner sleep exists, so the group holds the stubborn pair.
    const sleeping = () => groupMembers(job.pid).some((s) => s.state !== "Z" && readComm(s.pid) === "sleep");
    expect(await until(sleeping)).toBe(true);
    const pids = liveMembers(job.pid);
    const result = await manager.kill(job.id);
    expect(result.confirmed).toBe(true);
    expect(result.snapshot.status).toBe("killed");
    expect(pids.filter(pidAlive)).toEqual([]);
    expect(liveMembers(job.pid)).toEqual([]);
  });

  it("kills the group at the deadline and ends as timed_out", async () => {
    const { manager, events } = makeHarness({ killGraceMs: 300 });
    const job = manager.start({ ...fg("sleep 30 & sleep 30"), deadlineMs: 300 });
    expect(job.deadlineAt).toBe(job.startedAt + 300);
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    const snap = manager.get(job.id)!;
    expect(snap.status).toBe("timed_out");
    expect(snap.signal).toBe("SIGTERM");
    expect(liveMembers(job.pid)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "job_exited", status: "timed_out" });
  });

  it("shutdown and killAllSync leave no process behind", async () => {
    const { manager } = makeHarness({ killGraceMs: 300 });
    const a = manager.start(fg("sleep 30 & sleep 30 & echo started"));
    const b = manager.start(fg(`bash -c 'trap "" TERM; sleep 60; :' & wait`));
    expect(await until(() => liveMembers(a.pid).length === 2 && liveMembers(b.pid).length === 3)).toBe(true);
    await manager.shutdown();
    expect(liveMembers(a.pid)).toEqual([]);
    expect(liveMembers(b.pid)).toEqual([]);
    expect(manager.list()).toEqual([]);

    const c = manager.start(fg("sleep 30 & sleep 30"));
    expect(await until(() => liveMembers(c.pid).length === 3)).toBe(true); // shell + two sleeps
    manager.killAllSync();
    expect(await until(() => liveMembers(c.pid).length === 0, 2000)).toBe(true);
  });
});

describe("job manager: waiting and reading", () => {
  it("wakes an output wait promptly and leaves the job running on timeout", async () => {
    clock = fakeClock();
    const { manager, dir } = makeHarness({ clock });
    const flag = path.join(dir, "flag");
    const job = manager.start(fg(`while [ ! -e '${flag}' ]; do sleep 0.01; done; echo hi; sleep 30`));
    expect(await timedOut(manager.wait(job.id, "output", 200), 200)).toBe("timeout");
    expect(manager.get(job.id)?.status).toBe("running");

    const waiting = manager.wait(job.id, "output", 5000);
    await sleep(100);
    const wrote = Date.now();
    fs.writeFileSync(flag, "");
    expect(await waiting).toBe("output");
    expect(Date.now() - wrote).toBeLessThan(300);
    expect((await manager.readNew(job.id)).text).toBe("hi\n");

    // Read output is not "new" again; an exit wait times out without killing.
    expect(await timedOut(manager.wait(job.id, "output", 150), 150)).toBe("timeout");
    expect(await timedOut(manager.wait(job.id, "exit", 150), 150)).toBe("timeout");
    expect(manager.get(job.id)?.status).toBe("running");
  });

  it("resolves cancelled when the signal fires", async () => {
    const { manager } = makeHarness();
    const job = manager.start(fg("sleep 30"));
    const ac = new AbortController();
    const waiting = manager.wait(job.id, "exit", 10_000, ac.signal);
    setTimeout(() => ac.abort(), 50);
    expect(await waiting).toBe("cancelled");
    expect(manager.get(job.id)?.status).toBe("running");
    ac.abort();
    expect(await manager.wait(job.id, "exit", 10_000, ac.signal)).toBe("cancelled");
  });

  it("emits throttled output events with the running total", async () => {
    const { manager, events } = makeHarness();
    const job = manager.start(fg("for i in $(seq 1 20); do echo line$i; sleep 0.02; done"));
    await manager.wait(job.id, "exit", 5000);
    const outputs = events.filter((e) => e.type === "job_output") as unknown as { text: string; totalBytes: number }[];
    const expected = Array.from({ length: 20 }, (_, i) => `line${i + 1}\n`).join("");
    expect(outputs.map((o) => o.text).join("")).toBe(expected);
    expect(outputs.at(-1)?.totalBytes).toBe(Buffer.byteLength(expected));
    // 20 writes over ~400 ms, at most one event per 100 ms (plus the final flush).
    expect(outputs.length).toBeLessThanOrEqual(8);
  });

  it("does not split a UTF-8 character across reads", async () => {
    const { manager } = makeHarness();
    // é is 0xc3 0xa9: the two bytes arrive 600 ms apart.
    const job = manager.start(fg(String.raw`printf 'a\303'; sleep 0.6; printf '\251b\n'`));
    expect(await until(() => manager.get(job.id)!.totalBytes === 2)).toBe(true);
    const first = await manager.readNew(job.id);
    expect(first.text).toBe("a");
    expect(first.to).toBe(1);
    // The held-back byte is not new output: an output wait does not spin on it.
    expect(await manager.wait(job.id, "output", 100)).toBe("timeout");
    await manager.wait(job.id, "exit", 5000);
    expect((await manager.readNew(job.id)).text).toBe("éb\n");
  });
});
