// Writes a whole file so that a reader (or a crash) sees the old content or
// the new one, never a mix or an empty file: a temporary file beside it,
// fsynced, then renamed over it. A symlinked file (dotfile managers) is
// updated where it points, not replaced.

import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";

export function writeFileAtomic(file: string, text: string, defaultMode = 0o600): void {
  const target = realOr(file);
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  let mode = defaultMode;
  try {
    mode = fs.statSync(target).mode & 0o777;
  } catch {
    // A new file: the default mode.
  }
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode, flag: "wx", flush: true });
    fs.chmodSync(tmp, mode); // the create mode is masked by umask
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Where a path really is (symlinks followed); the path itself when it does not exist yet. */
export function realOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
