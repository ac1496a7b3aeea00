// Config files and the trust store are written atomically (core/atomic-write.ts),
// private to the user when new, and where a symlink points: a dotfile
// manager's link stays a link to the file it manages.

import * as fs from "node:fs";
import { atomicWriteSync, removeStaleTemps } from "../atomic-write.js";

export function writeConfigText(file: string, text: string): void {
  const target = realOr(file);
  // A copy an earlier yuj was killed while writing: it is not the file, and nothing else removes it.
  removeStaleTemps(target);
  atomicWriteSync(target, text, { createParents: true, mode: 0o600 });
}

/** Where a path really is (symlinks followed); the path itself when it does not exist yet. */
export function realOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
