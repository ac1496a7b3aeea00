// What this session has seen of each file. For Chord's write gating: a
// complete read, or the session's own whole-file write, lets `write` replace
// an existing file; paged and budget-truncated reads do not. For drift (edit
// and apply_patch warn and back up a file that changed on disk since): the
// file as the session last saw it, through any read, paged ones included, or
// its own write or change.
//
// A file the user attached with an @-mention counts as seen too (the
// reference records a mentioned file's snapshot): the core keeps those in
// ATTACHED_FILES, and the newest sighting wins, since every record made here
// drops the attachment's.
//
// The records live in the session's memory (core/session-memory.ts), so a
// grant one session earned by reading a file is never another session's,
// even for the same file under the same session folder (a parent and the
// agents it starts); they end with the session.

import { createHash } from "node:crypto";
import * as path from "node:path";
import type { FileSystem } from "../../../core/services.js";
import { memoryKey, type SessionMemory } from "../../../core/session-memory.js";
import { ATTACHED_FILES } from "../../../core/mentions.js";
import { displayPath, gitDirError, hiddenRefusal, isInGitDir, resolveInCwd, type ResolveOptions } from "../paths.js";
import { ownFileRefusal } from "../own-files.js";
import { copyChecked } from "../pinned-fs.js";
import type { OwnDir } from "../../../core/paths.js";

export interface Observation {
  /** sha256 of the content a complete read (or this session's later change) left. */
  completeRead?: string;
  /** sha256 of this session's own last whole-file write (or a later edit of it). */
  ownWrite?: string;
  /** sha256 of the whole file when the session last saw it: any read, or its own write or change. */
  seen?: string;
}

/** Absolute path → what the session has seen of it. */
const OBSERVATIONS = memoryKey("chord file observations", () => new Map<string, Observation>());

/** The session's records; asking for them to change one drops that file's attachment, which is then older. */
const records = (memory: SessionMemory): Map<string, Observation> => memory.of(OBSERVATIONS);
const recordsFor = (memory: SessionMemory, abs: string): Map<string, Observation> => {
  memory.of(ATTACHED_FILES).delete(abs);
  return records(memory);
};

export const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

export function observation(memory: SessionMemory, abs: string): Observation | undefined {
  const attached = memory.of(ATTACHED_FILES).get(abs);
  const obs = records(memory).get(abs);
  return attached === undefined ? obs : { ...obs, seen: attached };
}

/** A read that returned the whole file, untruncated. */
export function noteCompleteRead(memory: SessionMemory, abs: string, sha: string): void {
  const map = recordsFor(memory, abs);
  map.set(abs, { ...map.get(abs), completeRead: sha, seen: sha });
}

/** A paged or budget-cut read: the session saw this version, though not all of it. */
export function noteSeen(memory: SessionMemory, abs: string, sha: string): void {
  const map = recordsFor(memory, abs);
  map.set(abs, { ...map.get(abs), seen: sha });
}

/** This session wrote the whole file: the model knows every byte of it. */
export function noteOwnWrite(memory: SessionMemory, abs: string, sha: string): void {
  const map = recordsFor(memory, abs);
  const prev = map.get(abs);
  map.set(abs, { ...prev, ownWrite: sha, seen: sha, ...(prev?.completeRead !== undefined ? { completeRead: sha } : {}) });
}

/**
 * This session changed the file in place (edit): existing grants follow the
 * new content, so the session's own change is never reported as drift, and
 * the new content is what it has seen (a later outside change is drift, even
 * of a file it never read).
 */
export function noteOwnChange(memory: SessionMemory, abs: string, sha: string): void {
  const map = recordsFor(memory, abs);
  const prev = map.get(abs);
  const next: Observation = { seen: sha };
  if (prev?.completeRead !== undefined) next.completeRead = sha;
  if (prev?.ownWrite !== undefined) next.ownWrite = sha;
  map.set(abs, next);
}

/** The file is gone (delete): nothing observed about a future file at this path. */
export function forget(memory: SessionMemory, abs: string): void {
  recordsFor(memory, abs).delete(abs);
}

export type WriteGate =
  | { allowed: true; drifted: boolean }
  /** `changedSinceOwnWrite`: the session wrote the file, and it changed on disk since. */
  | { allowed: false; changedSinceOwnWrite: boolean };

/** May `write` replace an existing file whose current bytes hash to `currentSha`? */
export function writeGate(memory: SessionMemory, abs: string, currentSha: string): WriteGate {
  const obs = observation(memory, abs);
  if (obs?.ownWrite === currentSha || obs?.completeRead === currentSha) return { allowed: true, drifted: false };
  if (obs?.completeRead !== undefined) return { allowed: true, drifted: true };
  return { allowed: false, changedSinceOwnWrite: obs?.ownWrite !== undefined };
}

// ---------------------------------------------------------------------------
// Shared by the Chord file tools: paths that do not follow a final symlink,
// and backups under the session directory.


/** Chord error texts carry no `ERROR: ` prefix; the result's ok=false marks them. */
export const plain = (error: string): string => error.replace(/^ERROR: /, "");

/** Chord names what it would not do to a device path: `cannot write blocked device path: /dev/stdout`. */
export const deviceRefusal = (error: string, verb: string): string => error.replace(/^(ERROR: )?blocked device path: /, `cannot ${verb} blocked device path: `);

export type NoFollow = { ok: true; abs: string; cwdReal: string; display: string } | { ok: false; error: string };

/**
 * The path the model named, with its parent resolved and contained like every
 * file tool's but the last component left as is: a symlink there is the link
 * itself, never its target (write refuses one, delete removes only the link).
 */
export async function resolveNoFollow(
  fs: FileSystem,
  cwd: string,
  input: string,
  ownDirs: readonly OwnDir[],
  access: Pick<ResolveOptions, "hidden" | "hiddenError" | "outside"> = {},
): Promise<NoFollow> {
  const base = path.basename(input);
  const write = { ownDirs };
  if (base === "" || base === "." || base === ".." || /[/\\]$/.test(input)) {
    const whole = await resolveInCwd(fs, cwd, input, { forbidNewline: true, write, ...access });
    return whole.ok ? whole : { ok: false, error: plain(whole.error) };
  }
  const parent = await resolveInCwd(fs, cwd, path.dirname(input), { forbidNewline: true, write, ...access });
  if (!parent.ok) {
    return { ok: false, error: plain(parent.error.replace(path.dirname(input), input)) };
  }
  if (/[\r\n\0]/.test(base)) return { ok: false, error: "path contains forbidden character (newline or NUL)" };
  const abs = path.join(parent.abs, base);
  if (isInGitDir(parent.cwdReal, abs)) return { ok: false, error: plain(gitDirError(input)) };
  const hidden = hiddenRefusal(access.hidden, input, abs);
  if (hidden) return { ok: false, error: plain(hidden) };
  // The last component is the link itself, never followed: it is checked as the name it is.
  const cwdAbs = path.resolve(cwd);
  const refused = await ownFileRefusal(fs, input, { cwdAbs, cwdReal: parent.cwdReal, target: path.resolve(cwdAbs, input), real: abs, ownDirs });
  if (refused) return { ok: false, error: plain(refused) };
  return { ok: true, abs, cwdReal: parent.cwdReal, display: displayPath(parent.cwdReal, abs) };
}

let backupSeq = 0;

/** `<sessionDir>/backups/<tool>/<stamp>/<display path>`, a new one each call. */
function backupPath(sessionDir: string, tool: string, display: string): string {
  const stamp = `${Date.now()}-${process.pid}-${++backupSeq}`;
  const rel = display.split("/").filter((s) => s !== "" && s !== "." && s !== "..").join(path.sep) || "file";
  return path.join(sessionDir, "backups", tool, stamp, rel);
}

/** backupBytes for a file on disk, copied without passing through memory (it may be large). */
export async function backupFile(fs: FileSystem, sessionDir: string, tool: string, display: string, source: string): Promise<string> {
  const dest = backupPath(sessionDir, tool, display);
  await fs.mkdir(path.dirname(dest), { recursive: true });
  // Copied from the checked file itself: a link swapped in meanwhile is refused, not copied.
  await copyChecked(fs, source, dest);
  return dest;
}

/** Saves `bytes` under a new backupPath and returns where. Throws when the backup cannot be written. */
export async function backupBytes(
  fs: FileSystem,
  sessionDir: string,
  tool: string,
  display: string,
  bytes: Uint8Array | string,
): Promise<string> {
  const dest = backupPath(sessionDir, tool, display);
  await fs.mkdir(path.dirname(dest), { recursive: true });
  await fs.writeFile(dest, bytes, { flag: "wx" });
  return dest;
}
