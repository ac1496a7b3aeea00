// Replace a file so that readers see either the old bytes or the new bytes,
// never a torn mix: write a sibling temp file, fsync it, rename it over the
// target. The temp file lives in the target's directory because rename is only
// atomic within one filesystem.

import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { FileSystem } from "../../core/services.js";

export interface AtomicWriteOptions {
  /** Create missing parent directories (write does; edit's file exists already). */
  createParents?: boolean;
  /** Permission bits to give the file instead of keeping the existing file's (a moved or re-created file). */
  mode?: number;
}

export async function atomicWrite(
  fs: FileSystem,
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(target);
  if (options.createParents) await fs.mkdir(dir, { recursive: true });

  // An existing file keeps its permission bits (an executable script stays
  // executable); a new file gets the default mode filtered by the umask.
  let mode: number | undefined = options.mode;
  if (mode === undefined) {
    try {
      mode = (await fs.stat(target)).mode & 0o7777;
    } catch {
      mode = undefined;
    }
  }

  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let handle: Awaited<ReturnType<FileSystem["open"]>> | undefined;
  try {
    handle = await fs.open(tmp, "wx", 0o666);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (mode !== undefined) await fs.chmod(tmp, mode);
    await fs.rename(tmp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(fs, dir);
}

// Persist the rename itself; best effort because some filesystems refuse to
// fsync a directory and the data is already safely in place.
async function syncDir(fs: FileSystem, dir: string): Promise<void> {
  try {
    const h = await fs.open(dir, "r");
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* ignored: see above */
  }
}
