// Shared setup for the job manager tests: a temp session dir, a manager that
// records its events, and /proc checks that count zombies as dead (where no
// init reaps orphans, killed processes linger as zombies).

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createJobManager, type JobManagerOptions } from "../../core/jobs/manager.js";
import type { JobManager } from "../../core/jobs/types.js";
import { groupMembers, isZombie, readStat } from "../../core/jobs/proc.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";

export interface Harness {
  manager: JobManager;
  events: CoreEvent[];
  dir: string;
  cleanup(): Promise<void>;
}

const harnesses = new Set<Harness>();

export function makeHarness(opts: Partial<JobManagerOptions> = {}): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-jobs-"));
  const events: CoreEvent[] = [];
  const { emit } = createEmitter("test", (e) => events.push(e));
  const manager = createJobManager({ sessionDir: dir, emit, killGraceMs: 500, ...opts });
  const h: Harness = {
    manager,
    events,
    dir,
    async cleanup() {
      harnesses.delete(h);
      manager.killAllSync();
      await manager.shutdown();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  harnesses.add(h);
  return h;
}

/** For afterEach: ends every harness a test made, even failed ones. */
export async function cleanupAll(): Promise<void> {
  await Promise.all([...harnesses].map((h) => h.cleanup()));
}

/** Non-zombie processes in the group. */
export function liveMembers(pgid: number): number[] {
  return groupMembers(pgid)
    .filter((s) => !isZombie(s))
    .map((s) => s.pid);
}

export function pidAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && !isZombie(stat);
}

export async function until(cond: () => boolean, ms = 5000, step = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, step));
  }
  return cond();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function readComm(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}
