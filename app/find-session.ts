// Finding the session a command means: the one named by its id or a unique
// prefix of it, or by default the newest one in this directory.

import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../core/paths.js";
import { sessionsDir } from "../core/paths.js";
import { isSessionId } from "../core/session.js";
import { readBoundNames, sessionHolder } from "../core/session-lock.js";
import { readMeta, readSession, type SessionMeta, type SessionState, type SessionStatus } from "../core/session-state.js";
import type { SkippedLine } from "../core/history-log.js";
import { FatalError } from "./errors.js";

/**
 * A stored status, or `interrupted`: stored as running, but no process holds
 * it. A session some process holds (core/session-lock.ts) is `running`,
 * whatever its stored status says (the TUI holds an idle session too).
 */
export type ShownStatus = SessionStatus | "interrupted";

export interface ListedSession {
  dir: string;
  meta: SessionMeta;
  status: ShownStatus;
  /** The process holding the session, while one does (0: its pid is unknown). */
  pid?: number;
}

export function sessionsRoot(env: Env): string {
  return sessionsDir(env, env.HOME ?? homedir());
}

/** Every session with saved state, newest activity first. */
export function listSessions(env: Env): ListedSession[] {
  const root = sessionsRoot(env);
  let ids: string[];
  try {
    ids = readdirSync(root).filter(isSessionId);
  } catch {
    return [];
  }
  const found: ListedSession[] = [];
  const bound = readBoundNames();
  for (const id of ids) {
    const dir = join(root, id);
    const meta = readMeta(dir);
    if (!meta) continue;
    const pid = sessionHolder(dir, bound);
    found.push({ dir, meta, status: shownStatus(meta.status, pid), ...(pid !== undefined ? { pid } : {}) });
  }
  // Ids start with their creation time, so they break ties in the same order.
  return found.sort((a, b) => b.meta.updatedAt.localeCompare(a.meta.updatedAt) || b.meta.id.localeCompare(a.meta.id));
}

function shownStatus(stored: SessionStatus, holder: number | undefined): ShownStatus {
  if (holder !== undefined) return "running";
  return stored === "running" ? "interrupted" : stored;
}

/**
 * The session `id` names (a full id or a unique prefix), or without one the
 * newest session in `cwd` that `want` accepts (all when absent).
 */
export function findSession(
  env: Env,
  cwd: string,
  id: string | undefined,
  want?: { test: (s: ListedSession) => boolean; what: string },
): FoundSession {
  const all = listSessions(env);
  let hit: ListedSession | undefined;
  if (id !== undefined) {
    const matches = all.filter((s) => s.meta.id.startsWith(id));
    if (matches.length === 0) {
      throw new FatalError(`no session ${id} under ${sessionsRoot(env)}; \`yuj sessions\` lists them`);
    }
    if (matches.length > 1 && !matches.some((s) => s.meta.id === id)) {
      const shown = matches.slice(0, 5).map((s) => s.meta.id).join(", ");
      throw new FatalError(`session id ${id} is ambiguous: it starts ${matches.length} sessions (${shown}${matches.length > 5 ? ", …" : ""}); give more of it`);
    }
    hit = matches.find((s) => s.meta.id === id) ?? matches[0];
  } else {
    hit = all.find((s) => s.meta.cwd === cwd && (!want || want.test(s)));
    if (!hit) {
      throw new FatalError(
        `no session in ${cwd}${want ? ` ${want.what}` : ""} (sessions are kept under ${sessionsRoot(env)}; \`yuj sessions\` lists them)`,
      );
    }
  }
  const read = readSession(hit!.dir);
  if (!read) throw new FatalError(`the state of session ${hit!.meta.id} cannot be read: ${join(hit!.dir, "state.json")} is missing or damaged`);
  const pid = sessionHolder(hit!.dir);
  return {
    dir: hit!.dir,
    state: read.state,
    status: shownStatus(read.state.status, pid),
    skipped: read.skipped,
    ...(pid !== undefined ? { pid } : {}),
  };
}

export interface FoundSession {
  dir: string;
  state: SessionState;
  status: ShownStatus;
  /** The process holding the session, while one does (0: its pid is unknown). */
  pid?: number;
  /** Lines of the conversation log that were skipped as damaged. */
  skipped: SkippedLine[];
}
