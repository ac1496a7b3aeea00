// Replacing a file so that a reader, or a process killed at any moment, sees
// the old bytes or the new ones, never a mix or an empty file: the bytes go
// to a temporary file beside the target (rename is atomic only within one
// filesystem), which is fsynced, renamed over the target, and then the
// directory is fsynced so the rename itself survives a power cut. A file
// that is replaced keeps its permission bits (an executable script stays
// executable); a new one gets `mode`, filtered by the umask.
//
// The temporary name carries the writer's pid: a writer killed between the
// write and the rename leaves its temporary file behind, and the next start
// removes it once that pid no longer runs (removeStaleTemps).
//
// Two forms of the one algorithm: the async one for the tools, through the
// injected file system; the sync one for the session's state and the job
// records, which are also written inside process 'exit'.

import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import * as path from "node:path";
import type { FileSystem } from "./services.js";

export interface AtomicWriteOptions {
  /** Create missing parent directories. */
  createParents?: boolean;
  /** The mode of a new file (before the umask); default 0o666. */
  mode?: number;
  /** Permission bits the file gets whether or not it exists (a moved or re-created file), instead of the kept ones. */
  exactMode?: number;
  /**
   * fsync the file and its directory (default). false: the rename is still
   * atomic for a killed process, only a power cut may keep the old version.
   */
  durable?: boolean;
}

/** `.<name>.<pid>.<random>.tmp` in the target's directory. */
function tempNameFor(target: string, pid = process.pid): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${pid}.${randomBytes(6).toString("hex")}.tmp`);
}

/** Writes `data` at `target` atomically; throws with the system's reason, leaving no temporary file. */
export async function atomicWrite(fs: FileSystem, target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(target);
  if (options.createParents) await fs.mkdir(dir, { recursive: true });
  const kept = options.exactMode ?? (await fs.stat(target).then((st) => st.mode & 0o7777, () => undefined));
  const tmp = await writeTemp(fs, target, data, { ...options, ...(kept !== undefined ? { keepMode: kept } : {}) });
  try {
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
  if (options.durable !== false) await syncDir(fs, dir);
}

/**
 * Writes `data` to a new temporary file beside `target` and returns its
 * name (for a caller that links it into place instead of renaming it).
 * Nothing is left behind when it fails.
 */
export async function writeTemp(
  fs: FileSystem,
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions & { keepMode?: number } = {},
): Promise<string> {
  const tmp = tempNameFor(target);
  let handle: Awaited<ReturnType<FileSystem["open"]>> | undefined;
  try {
    handle = await fs.open(tmp, "wx", options.mode ?? 0o666);
    await handle.writeFile(data);
    // The create mode was masked by the umask; the old file's bits are set as they were.
    // On the handle, not the name: a name swapped for a link meanwhile would pass the mode on.
    if (options.keepMode !== undefined) await handle.chmod(options.keepMode);
    if (options.durable !== false) await handle.sync();
    await handle.close();
    handle = undefined;
    return tmp;
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

// Best effort: some filesystems refuse to fsync a directory, and the data is in place already.
async function syncDir(fs: FileSystem, dir: string): Promise<void> {
  try {
    const h = await fs.open(dir, "r");
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* see above */
  }
}

/** The synchronous calls atomicWriteSync makes: tests hand in one whose rename fails. */
export type SyncFileSystem = Pick<
  typeof nodeFs,
  "openSync" | "writeSync" | "fsyncSync" | "closeSync" | "renameSync" | "rmSync" | "statSync" | "mkdirSync" | "fchmodSync"
>;

/** atomicWrite for callers that cannot wait (the session's state, the job records written on exit). */
export function atomicWriteSync(target: string, data: string | Uint8Array, options: AtomicWriteOptions & { fs?: SyncFileSystem } = {}): void {
  const fs = options.fs ?? nodeFs;
  const dir = path.dirname(target);
  if (options.createParents) fs.mkdirSync(dir, { recursive: true });
  let kept: number | undefined;
  try {
    kept = fs.statSync(target).mode & 0o7777;
  } catch {
    // A new file: `mode`.
  }
  const tmp = tempNameFor(target);
  try {
    const fd = fs.openSync(tmp, "wx", options.mode ?? 0o666);
    try {
      writeAllSync(fs, fd, typeof data === "string" ? Buffer.from(data) : data);
      if (kept !== undefined) fs.fchmodSync(fd, kept);
      if (options.durable !== false) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  if (options.durable !== false) syncDirSync(fs, dir);
}

// Every byte checked in: a short write renamed into place would be a torn file.
function writeAllSync(fs: SyncFileSystem, fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) {
    const n = fs.writeSync(fd, bytes, done, bytes.length - done);
    if (n <= 0) throw new Error(`short write: ${done} of ${bytes.length} bytes`);
    done += n;
  }
}

function syncDirSync(fs: SyncFileSystem, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Best effort, as above.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Removes the temporary files of `target` that writers which no longer run
 * left behind (killed between write and rename); a running writer's file
 * stays. Returns the names removed.
 */
export function removeStaleTemps(target: string): string[] {
  return removeStale(path.dirname(target), path.basename(target));
}

/** removeStaleTemps for every file of `dir` (a folder of per-process files). */
export function removeStaleTempsIn(dir: string): string[] {
  return removeStale(dir, undefined);
}

const TEMP_NAME = /^\.(.+)\.([1-9][0-9]*)\.[0-9a-f]{12}\.tmp$/;

function removeStale(dir: string, of: string | undefined): string[] {
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || (of !== undefined && m[1] !== of) || isRunning(Number(m[2]))) continue;
    try {
      nodeFs.rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Another start removed it, or the folder cannot be changed: nothing is lost either way.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
