// Changing files inside the project from the host without being led out of
// it. yuj undoes what a sandboxed command planted while other commands of
// the session may still run, and one of them could replace a directory on
// the way with a symbolic link to a host file between yuj's check and its
// write (the host is writable for yuj, not for the command). So each change
// goes through a descriptor of the directory, opened without following a
// link there and checked to lie in the project: `/proc/self/fd/N/name`
// names an entry of exactly that directory, whatever happens to its path
// meanwhile, and the entry itself is opened without following a link and
// checked to be the file that was judged (same device, inode and ctime: an
// inode number is reused at once when a file is removed and another made).

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { isWithin } from "./bwrap.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** Which file, in which state, an lstat saw. */
export interface FileId {
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
}

const same = (a: fs.BigIntStats, b: FileId) => a.dev === b.dev && a.ino === b.ino && a.ctimeNs === b.ctimeNs;

/**
 * Runs `fn` with a path naming the directory of `file` through an open
 * descriptor, and the file's name in it; undefined when that directory is not
 * in `project` (or cannot be opened).
 */
function inParent<T>(project: string, file: string, fn: (dirVia: string, name: string) => T): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path.dirname(file), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const via = `/proc/self/fd/${fd}`;
    if (!isWithin(fs.readlinkSync(via), project)) return undefined;
    return fn(via, path.basename(file));
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes `file` when it is still the entry judged (`id`); false when it was not removed. */
export function removeEntry(project: string, file: string, id: FileId): boolean {
  return (
    inParent(project, file, (dir, name) => {
      const entry = path.join(dir, name);
      const st = fs.lstatSync(entry, { bigint: true });
      if (!same(st, id)) return false;
      fs.unlinkSync(entry);
      return true;
    }) ?? false
  );
}

/** The bytes of the regular file `file`, when it is still `id`. */
export function readFileAt(project: string, file: string, id: FileId): Buffer | undefined {
  return inParent(project, file, (dir, name) => {
    const fd = fs.openSync(path.join(dir, name), O_RDONLY | O_NOFOLLOW);
    try {
      return same(fs.fstatSync(fd, { bigint: true }), id) ? fs.readFileSync(fd) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  });
}

/** Replaces the regular file `file` (still `id`) with `data`, atomically, keeping its mode. */
export function replaceFileAt(project: string, file: string, id: FileId, data: Buffer): boolean {
  return (
    inParent(project, file, (dir, name) => {
      const target = path.join(dir, name);
      const fd = fs.openSync(target, O_RDONLY | O_NOFOLLOW);
      let mode: number;
      try {
        const st = fs.fstatSync(fd, { bigint: true });
        if (!same(st, id)) return false;
        mode = Number(st.mode) & 0o7777;
      } finally {
        fs.closeSync(fd);
      }
      const tmp = path.join(dir, `.${name}.yuj-${randomBytes(6).toString("hex")}`);
      const out = fs.openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
      try {
        fs.writeFileSync(out, data);
        fs.fsyncSync(out);
      } finally {
        fs.closeSync(out);
      }
      fs.renameSync(tmp, target);
      return true;
    }) ?? false
  );
}

/** Clears the execute bits of the regular file `file` (still `id`). */
export function clearExecuteAt(project: string, file: string, id: FileId): boolean {
  return (
    inParent(project, file, (dir, name) => {
      const fd = fs.openSync(path.join(dir, name), O_RDONLY | O_NOFOLLOW);
      try {
        const st = fs.fstatSync(fd, { bigint: true });
        if (!same(st, id) || !st.isFile()) return false;
        fs.fchmodSync(fd, Number(st.mode) & 0o7666);
        return true;
      } finally {
        fs.closeSync(fd);
      }
    }) ?? false
  );
}
