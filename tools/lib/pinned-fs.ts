// Using a checked path without a window between the check and the use.
// resolveInCwd checks the real path of what the model named (inside the
// project, not in .git, not hidden); a process that swaps a folder on that
// path, or the file itself, for a symbolic link right after the check would
// otherwise lead the open, the write or the unlink outside. So every use
// here is of exactly the real path that was checked:
//
// - A file is opened with O_NOFOLLOW (the file itself swapped for a link
//   fails), then the open file's own location, as the kernel knows it
//   (/proc/self/fd/N), must be the checked path: a folder swapped on the
//   way leads elsewhere and is refused before a byte is read.
// - A write, an unlink, a mkdir goes through the checked folder held open:
//   `/proc/self/fd/N/name` names an entry of that very folder, whatever is
//   now at its path, as openat would (Node has no openat). The temporary
//   file of an atomic write and its rename both stay in that folder.
//
// Without /proc (not Linux) the same checks are made by comparing the open
// handle with the path before and after; that narrows the window but cannot
// close it, since a path is looked up anew each time.

import { constants } from "node:fs";
import { readlink } from "node:fs/promises";
import * as path from "node:path";
import { atomicWrite, type AtomicWriteOptions } from "../../core/atomic-write.js";
import type { FileSystem } from "../../core/services.js";

type Handle = Awaited<ReturnType<FileSystem["open"]>>;

const FD_ROOT = "/proc/self/fd";
// Absent flags (a platform without them) count as 0: the location check still holds.
const { O_RDONLY } = constants;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Thrown when what was checked is no longer what the path leads to. */
class SwappedPathError extends Error {
  readonly code = "ESWAPPED";
  constructor(readonly path: string) {
    super("the path changed while it was being opened (a folder on it or the file itself was replaced, e.g. by a symbolic link); nothing was read or changed there");
  }
}

/** Where the kernel has the open file now; undefined when /proc cannot say. */
async function fdPath(fd: number): Promise<string | undefined> {
  try {
    return await readlink(`${FD_ROOT}/${fd}`);
  } catch {
    return undefined;
  }
}

/** The path an open handle can be reached by: its /proc entry, or the checked path itself where there is none. */
const handlePath = (h: Handle, where: string | undefined, checked: string): string => (where !== undefined ? `${FD_ROOT}/${h.fd}` : checked);

/** Without /proc: the handle is the file the path names now, and the path holds no link. */
async function sameAsPath(fs: FileSystem, h: Handle, p: string): Promise<boolean> {
  const [a, b, real] = await Promise.all([h.stat(), fs.lstat(p).catch(() => undefined), fs.realpath(p).catch(() => undefined)]);
  return b !== undefined && a.dev === b.dev && a.ino === b.ino && real === p;
}

// ELOOP: the last component is a link (O_NOFOLLOW); ENOTDIR: a folder is now a file or a link to one.
const swapCodes = new Set(["ELOOP", "EMLINK", "ENOTDIR"]);

async function openPinned(fs: FileSystem, real: string, flags: number): Promise<{ h: Handle; where: string | undefined }> {
  let h: Handle;
  try {
    h = await fs.open(real, flags | O_NOFOLLOW);
  } catch (err) {
    if (swapCodes.has((err as NodeJS.ErrnoException).code ?? "")) throw new SwappedPathError(real);
    throw err;
  }
  const where = await fdPath(h.fd);
  if (where !== undefined ? where !== real : !(await sameAsPath(fs, h, real))) {
    await h.close();
    throw new SwappedPathError(real);
  }
  return { h, where };
}

/**
 * Opens the file at `real` (a checked real path) for reading. O_NONBLOCK:
 * a pipe swapped in is refused instead of blocking the open.
 */
async function openChecked(fs: FileSystem, real: string): Promise<Handle> {
  const { h } = await openPinned(fs, real, O_RDONLY | O_NONBLOCK);
  if (!(await h.stat()).isFile()) {
    await h.close();
    throw new SwappedPathError(real);
  }
  return h;
}

/** The whole file at `real`, read through openChecked. */
export async function readChecked(fs: FileSystem, real: string): Promise<Buffer> {
  const h = await openChecked(fs, real);
  try {
    return await h.readFile();
  } finally {
    await h.close();
  }
}

/**
 * `fs` for the reading helpers that take a file system and a path (line
 * scans, head reads): its read-only opens and whole-file reads go through
 * openChecked, so the path given them must be the checked real path.
 */
export function checkedReads(fs: FileSystem): FileSystem {
  const open = (async (p: string, flags?: string | number, mode?: number) =>
    flags === undefined || flags === "r" || flags === O_RDONLY ? openChecked(fs, p) : fs.open(p, flags, mode)) as FileSystem["open"];
  const readFile = (async (p: string, opts?: BufferEncoding | { encoding?: BufferEncoding | null }) => {
    const bytes = await readChecked(fs, p);
    const encoding = typeof opts === "string" ? opts : opts?.encoding;
    return encoding ? bytes.toString(encoding) : bytes;
  }) as FileSystem["readFile"];
  return { ...fs, open, readFile };
}

/**
 * Runs `use` with the entries of the folder `realDir` (a checked real path)
 * named through the folder held open, so a folder swapped on its path after
 * the check is never followed.
 */
async function inDir<T>(fs: FileSystem, realDir: string, use: (entry: (name: string) => string) => Promise<T>): Promise<T> {
  const { h, where } = await openPinned(fs, realDir, O_RDONLY | O_DIRECTORY);
  try {
    const base = handlePath(h, where, realDir);
    const out = await use((name) => path.join(base, name));
    // Without /proc the names went by path: a swap during `use` is at least noticed.
    if (where === undefined && !(await sameAsPath(fs, h, realDir))) throw new SwappedPathError(realDir);
    return out;
  } finally {
    await h.close();
  }
}

/** Creates the missing folders of `realDir`, each one inside its parent held open (mkdir never follows a link in the last place). */
async function mkdirsChecked(fs: FileSystem, realDir: string): Promise<void> {
  const missing: string[] = [];
  let cur = realDir;
  while (!(await fs.lstat(cur).then(() => true, () => false))) {
    const parent = path.dirname(cur);
    if (parent === cur) break;
    missing.push(cur);
    cur = parent;
  }
  for (const dir of missing.reverse()) {
    await inDir(fs, path.dirname(dir), async (entry) => {
      await fs.mkdir(entry(path.basename(dir))).catch((err: NodeJS.ErrnoException) => {
        // Made meanwhile by someone else: the next step opens it pinned, and checks what it is.
        if (err.code !== "EEXIST") throw err;
      });
    });
  }
}

/** atomicWrite of `real` (a checked real path), its temporary file and its rename inside the checked folder held open. */
export async function atomicWriteChecked(fs: FileSystem, real: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(real);
  if (options.createParents) await mkdirsChecked(fs, dir);
  await inDir(fs, dir, async (entry) => {
    const target = entry(path.basename(real));
    // The checked path is real, so a link there now was swapped in: refused,
    // and the mode kept is the file's own (atomicWrite's stat would follow a link).
    const st = await fs.lstat(target).catch(() => undefined);
    if (st?.isSymbolicLink()) throw new SwappedPathError(real);
    const kept = options.exactMode ?? (st?.isFile() ? st.mode & 0o7777 : undefined);
    await atomicWrite(fs, target, data, { ...options, createParents: false, ...(kept !== undefined ? { exactMode: kept } : {}) });
  });
}

/** Unlinks `real` (a file or a link, never followed) inside its checked folder held open. */
export async function unlinkChecked(fs: FileSystem, real: string): Promise<void> {
  await inDir(fs, path.dirname(real), (entry) => fs.unlink(entry(path.basename(real))));
}

/** Removes the empty folder `real` inside its checked parent held open; a folder with anything in it stays. */
export async function rmdirChecked(fs: FileSystem, real: string): Promise<void> {
  await inDir(fs, path.dirname(real), (entry) => fs.rmdir(entry(path.basename(real))));
}

/** The text of the link `real` (not followed), read inside its checked folder held open. */
export async function readlinkChecked(real: string, fs: FileSystem): Promise<string> {
  return inDir(fs, path.dirname(real), (entry) => readlink(entry(path.basename(real))));
}

/** Copies the file at `real` (opened as openChecked opens it) to a new file `dest`, without reading it into memory. */
export async function copyChecked(fs: FileSystem, real: string, dest: string): Promise<void> {
  const { h, where } = await openPinned(fs, real, O_RDONLY | O_NONBLOCK);
  try {
    await fs.copyFile(handlePath(h, where, real), dest, constants.COPYFILE_EXCL);
  } finally {
    await h.close();
  }
}
