// The sha256 of a file, read a chunk at a time: the guards hash whatever file
// a call read or changed, and that file may be far larger than memory should
// hold.

import { createHash } from "node:crypto";
import type { FileSystem } from "../../core/services.js";

const CHUNK_BYTES = 1024 * 1024;

export async function hashFile(fs: FileSystem, abs: string): Promise<string> {
  const handle = await fs.open(abs, "r");
  try {
    const hash = createHash("sha256");
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return hash.digest("hex");
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}
