// Session identity and on-disk layout. Each session gets one directory under
// the sessions dir (core/paths.ts) holding its trace and the full text of tool
// outputs that were cut before being sent to the model.

import * as fs from "node:fs";
import * as path from "node:path";
import { randomInt } from "node:crypto";

/** The session's event trace, one JSON row per event (core/trace.ts). */
export const TRACE_FILE = "trace.jsonl";
/** Full tool outputs saved when the model was sent a truncated text. */
export const TOOL_OUTPUT_DIR = "tool-output";

const ID_PATTERN = /^\d{8}-\d{6}-[0-9a-z]{6}$/;
const SUFFIX_SPACE = 36 ** 6;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * `YYYYMMDD-HHMMSS-xxxxxx`. UTC, so ids sort by creation time even across
 * time-zone or DST changes; the random suffix keeps ids started in the same
 * second apart.
 */
export function newSessionId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const suffix = randomInt(SUFFIX_SPACE).toString(36).padStart(6, "0");
  return `${date}-${time}-${suffix}`;
}

export function isSessionId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export interface SessionLayout {
  dir: string;
  trace: string;
  toolOutput: string;
}

/** Names of the files in a session directory; creates nothing. */
export function sessionLayout(dir: string): SessionLayout {
  return { dir, trace: path.join(dir, TRACE_FILE), toolOutput: path.join(dir, TOOL_OUTPUT_DIR) };
}

/**
 * Creates `<sessionsDir>/<id>` (and any missing parents) and returns its path.
 * The id must be one `newSessionId` makes: ids can come from the command line
 * (resume), and a `../` there must not write outside the sessions dir.
 * Mode 0700 because traces hold the conversation and the repository's content.
 */
export function createSessionDir(sessionsDir: string, id: string): string {
  const dir = path.join(sessionsDir, checkedId(id));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

// A new session is put together under a name no command lists (not an id),
// then renamed to its id in one step: a session folder either holds its
// saved state or does not exist, even when the process is killed meanwhile.
const STAGING = /^\.(\d{8}-\d{6}-[0-9a-z]{6})\.new$/;
/** Staging folders older than this were left by a process killed mid-creation. */
const STAGING_LEFT_MS = 10 * 60_000;

/** Creates the (empty) folder a new session is put together in. */
export function createStagingDir(sessionsDir: string, id: string): string {
  fs.mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
  sweepStaging(sessionsDir);
  const dir = path.join(sessionsDir, `.${checkedId(id)}.new`);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** Moves a staged session to its id; returns the session's folder. */
export function publishStagingDir(staging: string): string {
  const id = STAGING.exec(path.basename(staging))?.[1];
  if (!id) throw new Error(`${staging} is not a staging folder`);
  const dir = path.join(path.dirname(staging), id);
  try {
    fs.renameSync(staging, dir);
    return dir;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
  }
  // A service that records its processes for crash recovery (an MCP server
  // started with the session) wrote into the session's folder before the
  // session was saved. The staged files join it, the state last: the folder
  // counts as a session only once that is there.
  const names = fs.readdirSync(staging).sort((a, b) => Number(a === STATE_FILE_NAME) - Number(b === STATE_FILE_NAME));
  for (const name of names) fs.renameSync(path.join(staging, name), path.join(dir, name));
  fs.rmdirSync(staging);
  return dir;
}

/** The file whose presence makes a folder a saved session. */
const STATE_FILE_NAME = "state.json";

/** Removes the staging folders a killed process left (best effort). */
function sweepStaging(sessionsDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(sessionsDir).filter((n) => STAGING.test(n));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(sessionsDir, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > STAGING_LEFT_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

function checkedId(id: string): string {
  if (!isSessionId(id)) {
    throw new Error(`invalid session id "${id}": expected YYYYMMDD-HHMMSS-xxxxxx (as made by newSessionId)`);
  }
  return id;
}
