// Finding processes by the marker in their environment: real processes, real
// /proc. The manager-level attacks (setsid, daemons, every way yuj ends) are
// in test/e2e/escaped-processes.test.ts.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findMarked, killMarkedSync, MARKER_VAR, newMarker, stopMarked } from "../../core/jobs/escapees.js";
import { systemClock } from "../../core/services.js";
import { cleanupAll, makeHarness, pidAlive, until } from "./support.js";

const started: number[] = [];
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await cleanupAll();
});

function sleeper(env: Record<string, string>): number {
  const child = spawn("sleep", ["300"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdio: "ignore", detached: true });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

describe("the environment marker", () => {
  it("finds exactly the processes holding the marker as a whole entry, and kills only them", async () => {
    const marker = newMarker();
    const mine = sleeper({ [MARKER_VAR]: marker, OTHER: "x" });
    const longer = sleeper({ [MARKER_VAR]: `${marker}0` });
    const inValue = sleeper({ NOTE: `${MARKER_VAR}=${marker}` });
    const none = sleeper({});
    expect(await until(() => findMarked(marker).length === 1)).toBe(true);
    expect(findMarked(marker).map((p) => p.pid)).toEqual([mine]);
    expect(findMarked(marker)[0]!.command).toBe("sleep 300");

    expect(killMarkedSync(marker).map((p) => p.pid)).toEqual([mine]);
    expect(await until(() => !pidAlive(mine))).toBe(true);
    for (const pid of [longer, inValue, none]) expect(pidAlive(pid)).toBe(true);
  });

  it("stopMarked gives SIGTERM first, and SIGKILL to what ignores it", async () => {
    const marker = newMarker();
    const polite = sleeper({ [MARKER_VAR]: marker });
    const stubborn = spawn("bash", ["-c", "trap '' TERM; while :; do sleep 0.05; done"], {
      env: { PATH: process.env.PATH ?? "", [MARKER_VAR]: marker },
      stdio: "ignore",
      detached: true,
    });
    started.push(stubborn.pid!);
    expect(await until(() => findMarked(marker).length >= 2)).toBe(true);
    const stopped = await stopMarked(marker, 300, systemClock);
    expect(stopped.map((p) => p.pid)).toEqual(expect.arrayContaining([polite, stubborn.pid!]));
    expect(await until(() => findMarked(marker).length === 0)).toBe(true);
  });
});

describe("a job manager without a sandbox", () => {
  it("keeps a pointer with its marker while escapees may be left, ends them at shutdown, then drops it", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-escapees-state-"));
    const h = makeHarness({ stateDir });
    const name = `yuj-escapee-${process.pid}-${Date.now()}`;
    const job = h.manager.start({ command: `setsid bash -c 'exec -a ${name} sleep 300' >/dev/null 2>&1 < /dev/null &`, cwd: h.dir, background: false });
    expect(await until(() => h.manager.get(job.id)?.status === "exited")).toBe(true);
    // The job is over, its group is gone, but what it left runs on, and the pointer says how to find it.
    const pointers = fs.readdirSync(path.join(stateDir, "running"));
    expect(pointers).toHaveLength(1);
    const pointer = JSON.parse(fs.readFileSync(path.join(stateDir, "running", pointers[0]!), "utf8")) as { marker?: string };
    expect(pointer.marker).toMatch(/^\d+-\d+-[0-9a-f]{32}$/);
    // The command line changes when bash execs sleep, which may come after the job has ended.
    expect(await until(() => findMarked(pointer.marker!).some((p) => p.command === `${name} 300`))).toBe(true);
    const escapee = findMarked(pointer.marker!);
    expect(escapee.map((p) => p.command)).toEqual([`${name} 300`]);

    await h.manager.shutdown();
    expect(await until(() => !pidAlive(escapee[0]!.pid))).toBe(true);
    expect(fs.readdirSync(path.join(stateDir, "running"))).toEqual([]);
    expect(h.events.find((e) => e.type === "notice")).toMatchObject({
      text: `stopped 1 process(es) that had left their command's process group: ${escapee[0]!.pid} (${name} 300)`,
    });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });
});
