// The state a session needs to continue after the process that ran it has
// ended: the conversation, the calls waiting on an approval and the answer,
// the rules stored for the session, and the settings it was started with.
// Written atomically, so a reader sees the old state or the new, never a mix.

import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalAnswer, ApprovalRequest } from "./approvals/types.js";
import type { Usage } from "./events.js";
import type { HistoryItem, ToolCall, ToolImage } from "./history.js";
import type { Rule } from "./permissions/types.js";

export const STATE_FILE = "state.json";

export type SessionStatus = "running" | "approval_required" | "input_required" | "completed" | "failed" | "cancelled";

/** The command-line settings a resumed session is resolved with again. */
export interface StoredSettings {
  profile?: string;
  configFiles: string[];
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  editFormat?: string;
  maxTurns?: number;
  yolo?: boolean;
  measure?: boolean;
}

export interface SessionState {
  version: 1;
  sessionId: string;
  cwd: string;
  status: SessionStatus;
  task: string;
  settings: StoredSettings;
  history: HistoryItem[];
  /** Calls of the paused turn not yet run; the first one waits for `request`. */
  pending?: { calls: ToolCall[]; request: ApprovalRequest };
  /** The answer recorded by `yuj approve` / `yuj reject`, used by `yuj resume`. */
  answer?: ApprovalAnswer;
  sessionRules: Rule[];
  usage: Usage;
  /** Last event sequence number written to the trace. */
  lastSeq: number;
  updatedAt: string;
}

export function writeState(dir: string, state: SessionState): void {
  const file = join(dir, STATE_FILE);
  const tmp = join(dir, `.${STATE_FILE}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify({ ...state, updatedAt: new Date().toISOString() }, imagesByFile, 1)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function readState(dir: string): SessionState | undefined {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as SessionState;
    if (state.version !== 1) return undefined;
    for (const item of state.history ?? []) if (item.role === "tool" && item.images) item.images = loadImages(dir, item.images);
    return state;
  } catch {
    return undefined;
  }
}

// An image saved in the session dir is stored by its file name only: the
// state is rewritten at every pause, and megabytes of base64 per image would
// make that slow. readState reads the bytes back.
function imagesByFile(key: string, value: unknown): unknown {
  if (key !== "images" || !Array.isArray(value)) return value;
  return (value as ToolImage[]).map(({ data, ...ref }) => (ref.file ? ref : { data, ...ref }));
}

/** Images whose saved copy is gone are dropped; the result text still says what was seen. */
function loadImages(dir: string, images: ToolImage[]): ToolImage[] {
  const loaded: ToolImage[] = [];
  for (const img of images) {
    if (img.data) {
      loaded.push(img);
      continue;
    }
    try {
      loaded.push({ ...img, data: readFileSync(join(dir, img.file ?? "")).toString("base64") });
    } catch {
      // missing copy: nothing to send
    }
  }
  return loaded;
}

/** Sessions (newest first) whose state passes `filter`. */
export function findSessions(sessionsDir: string, filter: (s: SessionState) => boolean): Array<{ dir: string; state: SessionState }> {
  if (!existsSync(sessionsDir)) return [];
  const ids = readdirSync(sessionsDir).sort().reverse();
  const found: Array<{ dir: string; state: SessionState }> = [];
  for (const id of ids) {
    const dir = join(sessionsDir, id);
    const state = readState(dir);
    if (state && filter(state)) found.push({ dir, state });
  }
  return found;
}
