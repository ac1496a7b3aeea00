// Files Chord's grep opens by name rather than finding them in a walk: a file
// given in `paths`, and the files `includes` names exactly. Includes that are
// all plain relative paths (no `*`, `?`, `[` or `{`) name files under each
// searched directory, which are read directly instead of walking the whole
// tree — a search of a large directory for one known file stays quick. A
// file opened by name is still skipped when it is not text: a binary
// extension, or a NUL byte near its start (what a walk would skip too).

import * as path from "node:path";
import type { FileSystem } from "../../../core/services.js";
import { isBinaryExtension } from "../chord/skipped-files.js";

/** How much of a file is sniffed for a NUL byte. */
const SNIFF_BYTES = 8 * 1024;

/** A glob character not escaped with a backslash. */
function hasGlobMeta(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if ("*?[{".includes(s[i]!)) return true;
  }
  return false;
}

/**
 * The includes as paths relative to a searched directory when every one is a
 * plain relative path inside it; undefined when any is a glob, absolute, or
 * leaves the directory (then includes filter a walk as usual).
 */
export function exactIncludePaths(includes: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const raw of includes) {
    const inc = raw.trim();
    if (inc === "" || path.isAbsolute(inc) || hasGlobMeta(inc)) return undefined;
    const clean = path.posix.normalize(inc.replace(/\\/g, "/")).replace(/\/$/, "");
    if (clean === "." || clean === "" || clean === ".." || clean.startsWith("../")) return undefined;
    if (!out.includes(clean)) out.push(clean);
  }
  return out.length ? out : undefined;
}

/** Whether grep leaves a file it was pointed at unread: a binary extension or a NUL byte in its first 8 KiB. */
export async function skipsAsBinary(fs: FileSystem, abs: string): Promise<boolean> {
  if (isBinaryExtension(path.basename(abs))) return true;
  const handle = await fs.open(abs, "r").catch(() => undefined);
  if (!handle) return false;
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
