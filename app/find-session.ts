// Finding the session a command means: the one named by its id or a unique
// prefix of it, or by default the newest one in this directory.

import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../core/paths.js";
import { sessionsDir } from "../core/paths.js";
import { isSessionId } from "../core/session.js";
import { readMeta, readState, type SessionMeta, type SessionState, type SessionStatus } from "../core/session-state.js";
import { FatalError } from "./errors.js";

/** A stored status, or `interrupted`: stored as running, but its process is gone. */
export type ShownStatus = SessionStatus | "interrupted";

export interface ListedSession {
  dir: string;
  meta: SessionMeta;
  status: ShownStatus;
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
  for (const id of ids) {
    const dir = join(root, id);
    const meta = readMeta(dir);
    if (meta) found.push({ dir, meta, status: shownStatus(meta) });
  }
  // Ids start with their creation time, so they break ties in the same order.
  return found.sort((a, b) => b.meta.updatedAt.localeCompare(a.meta.updatedAt) || b.meta.id.localeCompare(a.meta.id));
}

export function shownStatus(meta: Pick<SessionMeta, "status" | "pid">): ShownStatus {
  if (meta.status !== "running") return meta.status;
  return meta.pid !== undefined && processAlive(meta.pid) ? "running" : "interrupted";
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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
): { dir: string; state: SessionState; status: ShownStatus } {
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
  const state = readState(hit!.dir);
  if (!state) throw new FatalError(`the state of session ${hit!.meta.id} cannot be read: ${join(hit!.dir, "state.json")} is missing or damaged`);
  return { dir: hit!.dir, state, status: shownStatus({ status: state.status, ...(state.pid ? { pid: state.pid } : {}) }) };
}

/** For `yuj approve` / `yuj reject`: the session waiting for an approval. */
export function pausedSession(env: Env, cwd: string, id?: string): { dir: string; state: SessionState } {
  const found = findSession(env, cwd, id, { test: (s) => s.status === "approval_required", what: "is waiting for an approval" });
  if (found.state.status !== "approval_required" || !found.state.pending) {
    throw new FatalError(`session ${found.state.sessionId} is not waiting for an approval (its status is ${found.status})`);
  }
  return found;
}
