// Surviving a SIGKILL of yuj itself. No handler runs then, so every live
// job is written down where the next yuj can find it:
//   <sessionDir>/jobs/registry.json      the live jobs of one session, with
//                                        the proof of ownership (pgid, start
//                                        times of leader and members)
//   <stateDir>/running/<yujPid>.json     which session a yuj process owns
// Both are replaced atomically (temp file + rename), so a reader never sees
// half a file. The pointer exists only while its session has live jobs.
// At the next start, reapOrphans() kills the groups of dead yujs, but only
// the ones it can still prove are theirs, and then every process that holds
// a dead yuj's marker (escapees.ts): those that had left their groups.

import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { atomicWriteSync, removeStaleTemps, removeStaleTempsIn } from "../atomic-write.js";
import { systemClock, type Clock } from "../services.js";
import { groupLive, mayStillBeOurs, terminateGroup } from "./process-group.js";
import { isZombie, readBootId, readStat, readStartTime, type Member } from "./proc.js";
import { stopMarked } from "./escapees.js";

export interface RegistryEntry {
  jobId: string;
  pgid: number;
  /** Start time of the shell; undefined when /proc could not be read. */
  leaderStartTime?: number;
  /** Members recorded when the shell exited (the shell itself not included). */
  members: Member[];
  command: string;
  yujPid: number;
  yujStartTime?: number;
  bootId?: string;
}

interface Pointer {
  yujPid: number;
  yujStartTime?: number;
  bootId?: string;
  sessionDir: string;
  /** The environment marker of its commands (escapees.ts), once one ran outside the sandbox. */
  marker?: string;
}

export interface ReapedGroup {
  /** A job's process group, or one process that had left it (found by its marker). */
  kind: "group" | "process";
  /** The group id, or the process id. */
  pgid: number;
  command: string;
  sessionDir: string;
  action: "killed" | "gone";
}

/**
 * Writes `data` so readers see the old file or the new one, never a mix.
 * Not fsynced: the records name processes, and after a power cut there are
 * none left to find; a killed yuj's rename is in the page cache all the same.
 */
function writeAtomic(file: string, data: string): void {
  atomicWriteSync(file, data, { createParents: true, durable: false });
}

export function registryPath(sessionDir: string): string {
  return path.join(sessionDir, "jobs", "registry.json");
}

/** Identity of this yuj process, as the records name it. */
export function selfIdentity(): { yujPid: number; yujStartTime?: number; bootId?: string } {
  const yujStartTime = readStartTime(process.pid);
  const bootId = readBootId();
  return {
    yujPid: process.pid,
    ...(yujStartTime !== undefined ? { yujStartTime } : {}),
    ...(bootId !== undefined ? { bootId } : {}),
  };
}

let pointerCount = 0;

/**
 * Keeps one session's registry and this process's pointer in step with the
 * live jobs. Synchronous on purpose: it also runs inside process 'exit'.
 */
export class OrphanRegistry {
  private readonly pointerFile: string | undefined;
  private pointerWritten = false;
  private registryWritten = false;
  private marker: string | undefined;

  constructor(
    private readonly sessionDir: string,
    stateDir: string | undefined,
  ) {
    // Several managers in one process (sub-agents) each get their own pointer.
    const n = pointerCount++;
    const name = n === 0 ? `${process.pid}.json` : `${process.pid}-${n}.json`;
    this.pointerFile = stateDir ? path.join(stateDir, "running", name) : undefined;
  }

  /**
   * Records the live jobs. The pointer stays while any runs, or while
   * processes holding the marker may be left (until the manager shut down).
   */
  write(entries: RegistryEntry[]): void {
    try {
      // A session that never ran a job gets no registry: writing one would
      // create the session's folder, which a session not yet saved lacks.
      if (entries.length > 0 || this.registryWritten) {
        writeAtomic(registryPath(this.sessionDir), `${JSON.stringify(entries, null, 1)}\n`);
        this.registryWritten = true;
      }
      if (entries.length > 0 || this.marker !== undefined) this.writePointer();
      else this.removePointer();
    } catch {
      // Bookkeeping for crash recovery must never break a running job.
    }
  }

  /** From now on the pointer names `marker`, so the next yuj can find what holds it. */
  keepMarker(marker: string): void {
    this.marker = marker;
    this.pointerWritten = false;
    try {
      this.writePointer();
    } catch {
      // as in write()
    }
  }

  /** Nothing holds the marker any more (all of it was stopped). */
  dropMarker(): void {
    this.marker = undefined;
  }

  private writePointer(): void {
    if (this.pointerWritten || !this.pointerFile) return;
    const pointer: Pointer = { ...selfIdentity(), sessionDir: this.sessionDir, ...(this.marker ? { marker: this.marker } : {}) };
    writeAtomic(this.pointerFile, `${JSON.stringify(pointer)}\n`);
    this.pointerWritten = true;
  }

  removePointer(): void {
    if (!this.pointerFile || !this.pointerWritten) return;
    this.pointerWritten = false;
    try {
      fs.unlinkSync(this.pointerFile);
    } catch {
      // already gone
    }
  }
}

function sameBoot(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** The yuj that wrote the pointer still runs (same pid, same start time, same boot). */
function ownerAlive(pointer: Pointer, bootNow: string | undefined): boolean {
  if (!sameBoot(pointer.bootId, bootNow)) return false;
  const stat = readStat(pointer.yujPid);
  if (!stat || isZombie(stat)) return false;
  return pointer.yujStartTime === undefined || stat.startTime === pointer.yujStartTime;
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fsp.readFile(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

export interface ReapOptions {
  graceMs?: number;
  clock?: Clock;
}

/**
 * Finds the jobs of yuj processes that died without cleaning up and kills
 * the groups still provably theirs. Each pointer is claimed by renaming it
 * first, so two yujs starting together never reap the same session twice.
 */
export async function reapOrphans(stateDir: string, opts: ReapOptions = {}): Promise<ReapedGroup[]> {
  const dir = path.join(stateDir, "running");
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  // Pointers a yuj was killed while writing.
  removeStaleTempsIn(dir);
  const bootNow = readBootId();
  const results: ReapedGroup[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(dir, name);
    const pointer = await readJson<Pointer>(file);
    if (!pointer || typeof pointer.yujPid !== "number" || typeof pointer.sessionDir !== "string") {
      await fsp.unlink(file).catch(() => {});
      continue;
    }
    if (pointer.yujPid === process.pid || ownerAlive(pointer, bootNow)) continue;
    const claimed = `${file}.reaping-${process.pid}`;
    try {
      await fsp.rename(file, claimed);
    } catch {
      continue; // another yuj claimed it first
    }
    const registry = registryPath(pointer.sessionDir);
    removeStaleTemps(registry);
    const entries = (await readJson<RegistryEntry[]>(registry)) ?? [];
    const reaped = await Promise.all(
      entries.map((entry) => reapEntry(entry, pointer, sameBoot(pointer.bootId, bootNow), opts)),
    );
    results.push(...reaped);
    // Last, when the groups are gone: what had left them, by the marker.
    if (typeof pointer.marker === "string" && sameBoot(pointer.bootId, bootNow)) {
      const stopped = await stopMarked(pointer.marker, opts.graceMs ?? 2000, opts.clock ?? systemClock);
      for (const p of stopped) results.push({ kind: "process", pgid: p.pid, command: p.command, sessionDir: pointer.sessionDir, action: "killed" });
    }
    if (entries.length > 0) {
      try {
        writeAtomic(registry, "[]\n");
      } catch {
        // the session dir may be gone; nothing left to record
      }
    }
    await fsp.unlink(claimed).catch(() => {});
  }
  return results;
}

async function reapEntry(
  entry: RegistryEntry,
  pointer: Pointer,
  bootMatches: boolean,
  opts: ReapOptions,
): Promise<ReapedGroup> {
  const base = { kind: "group" as const, pgid: entry.pgid, command: entry.command, sessionDir: pointer.sessionDir };
  // After a reboot every old process is gone and the numbers mean nothing.
  if (!bootMatches || !Number.isInteger(entry.pgid) || entry.pgid <= 1) return { ...base, action: "gone" };
  const members: Member[] = [...(entry.members ?? [])];
  if (entry.leaderStartTime !== undefined) members.unshift({ pid: entry.pgid, startTime: entry.leaderStartTime });
  const isOurs = () => mayStillBeOurs(entry.pgid, members);
  if (!isOurs() || !groupLive(entry.pgid, members)) return { ...base, action: "gone" };
  await terminateGroup(entry.pgid, {
    graceMs: opts.graceMs ?? 2000,
    clock: opts.clock ?? systemClock,
    isOurs,
    isGone: () => !groupLive(entry.pgid, members),
  });
  return { ...base, action: "killed" };
}
