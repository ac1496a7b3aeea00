// What the Chord edit tools remember about the model's failed attempts, so a
// retry that cannot go differently is stopped and a loop of near misses is
// named, as the reference's agent does:
//
// * An apply_patch that failed to match, sent again unchanged while none of
//   its files changed on disk and none was read since, would fail the same
//   way: it is refused before anything runs, with what to do instead.
// * Two or more edit/apply_patch calls on one file in a row that found no
//   match (old_string not found, hunk not found) since the model last read or
//   changed that file add a note steering it to a fresh read; an ambiguous
//   match (found N times) needs more context, not a read, and is not counted.
//
// Keys are real paths, so two spellings of one file share a count. The records
// live in the session's memory and end with it.

import type { FileSystem } from "../../../core/services.js";
import { memoryKey, type SessionMemory } from "../../../core/session-memory.js";
import { hashFile } from "../file-hash.js";

/** From this many failures on one file, each failure carries the note. */
const ADVICE_FROM = 2;
/** Past this many, the note is left off: it has been said. */
const ADVICE_UNTIL = 5;
/** Failed patches remembered; older ones are forgotten first. */
const MAX_FAILED_PATCHES = 32;

interface FailedPatch {
  /** Real path → sha256 when the patch failed (null: there was no file). */
  targets: Map<string, string | null>;
  /** The read counter then: a read of a target after it lets the patch run again. */
  readMark: number;
}

interface RetryState {
  reads: number;
  /** Real path → the read counter at its last successful read. */
  lastRead: Map<string, number>;
  /** sha256 of the patch text → what it failed against. */
  failed: Map<string, FailedPatch>;
  /** Real path → no-match failures since its last read or change. */
  streak: Map<string, number>;
}

const RETRY = memoryKey("chord edit retries", (): RetryState => ({ reads: 0, lastRead: new Map(), failed: new Map(), streak: new Map() }));

const hashOrNull = async (fs: FileSystem, abs: string): Promise<string | null> => {
  try {
    return await hashFile(fs, abs);
  } catch {
    return null;
  }
};

/** A successful read of the file: its patches may be retried, its streak starts over. */
export function noteReadForRetry(memory: SessionMemory, abs: string): void {
  const state = memory.of(RETRY);
  state.lastRead.set(abs, ++state.reads);
  state.streak.delete(abs);
}

/** The model changed the file itself (an edit or patch that applied): its streak starts over. */
export function noteChangedForRetry(memory: SessionMemory, abs: string): void {
  memory.of(RETRY).streak.delete(abs);
}

/** Remembers a patch that failed against these files as they are now. */
export async function armFailedPatch(memory: SessionMemory, fs: FileSystem, patchKey: string, targets: readonly string[]): Promise<void> {
  const state = memory.of(RETRY);
  const hashes = new Map<string, string | null>();
  for (const abs of targets) hashes.set(abs, await hashOrNull(fs, abs));
  state.failed.delete(patchKey);
  state.failed.set(patchKey, { targets: hashes, readMark: state.reads });
  while (state.failed.size > MAX_FAILED_PATCHES) state.failed.delete(state.failed.keys().next().value!);
}

/** True when this exact patch failed before and nothing it names was changed or read since. */
export async function isUnchangedRetry(memory: SessionMemory, fs: FileSystem, patchKey: string): Promise<boolean> {
  const state = memory.of(RETRY);
  const record = state.failed.get(patchKey);
  if (!record) return false;
  for (const [abs, sha] of record.targets) {
    if ((state.lastRead.get(abs) ?? 0) > record.readMark || (await hashOrNull(fs, abs)) !== sha) {
      state.failed.delete(patchKey);
      return false;
    }
  }
  return true;
}

/** Counts a no-match failure on the file; returns the note to add to the result, or "". */
export function noteMatchFailure(memory: SessionMemory, abs: string, shown: string): string {
  const state = memory.of(RETRY);
  const n = (state.streak.get(abs) ?? 0) + 1;
  state.streak.set(abs, n);
  if (n < ADVICE_FROM || n > ADVICE_UNTIL) return "";
  return (
    `\nNote: ${n} repeated approximate-match failures for ${shown} since it was last read or changed. ` +
    "Stop adjusting the same text: read the target range fresh and copy the lines exactly from that read."
  );
}
