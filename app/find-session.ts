// Finding the session a command means: the one named, or the newest one in
// this directory that waits for an approval.

import { homedir } from "node:os";
import type { Env } from "../core/paths.js";
import { sessionsDir } from "../core/paths.js";
import { findSessions, type SessionState } from "../core/session-state.js";
import { FatalError } from "./errors.js";

export function pausedSession(env: Env, cwd: string, id?: string): { dir: string; state: SessionState } {
  const dir = sessionsDir(env, env.HOME ?? homedir());
  const found = findSessions(dir, (s) => (id ? s.sessionId === id : s.cwd === cwd && s.status === "approval_required"));
  const hit = found[0];
  if (!hit) {
    throw new FatalError(
      id ? `no session ${id} under ${dir}` : `no session in ${cwd} is waiting for an approval (sessions are kept under ${dir})`,
    );
  }
  if (hit.state.status !== "approval_required" || !hit.state.pending) {
    throw new FatalError(`session ${hit.state.sessionId} is not waiting for an approval (its status is ${hit.state.status})`);
  }
  return hit;
}
