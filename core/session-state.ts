// The state a session needs to continue after the process that ran it has
// ended: the conversation, todos, jobs, the calls waiting on an approval or
// the question waiting on an answer, the rules stored for the session, and
// the settings it was started with.
//
// One folder per session (core/session.ts names it):
//   state.json    everything above but the conversation; rewritten after
//                 every completed step
//   history.jsonl the conversation, appended step by step (core/history-log.ts)
//   session.json  the metadata alone (id, cwd, status, times, the task's
//                 first line), so `yuj sessions` need not parse every
//                 conversation
//   trace.jsonl   every event (core/trace.ts)
//
// Both JSON files are written to a temporary file, fsynced, then renamed over
// the old one, so a reader — or a process killed at any moment — sees the old
// state or the new, never a mix. This is a small store on purpose rather than
// lowdb: lowdb's writer renames without fsync and queues writes
// asynchronously, while the loop must know that a step is on disk before it
// goes on, and must fail the run when it is not.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalAnswer, ApprovalRequest } from "./approvals/types.js";
import type { FinishReason, TodoItem, Usage } from "./events.js";
import type { HistoryItem, ToolCall, ToolImage } from "./history.js";
import type { Rule } from "./permissions/types.js";
import { atomicWriteSync, type AtomicWriteOptions, type SyncFileSystem } from "./atomic-write.js";
import { HistoryLog, readHistoryLog, type SkippedLine } from "./history-log.js";
import { StateWriteError } from "./storage-error.js";

export const STATE_FILE = "state.json";
export const META_FILE = "session.json";

/**
 * Stored statuses. `running` whose process is gone is shown as
 * `interrupted` (app/find-session.ts); that is never stored.
 */
export type SessionStatus = "running" | "approval_required" | "input_required" | "paused" | "done" | "failed";

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
  planMode?: string;
  yolo?: boolean;
  measure?: boolean;
  toolDesc?: string;
}

/** A command the session started, as its events last described it. */
interface JobRecord {
  jobId: string;
  command: string;
  callId?: string;
  background: boolean;
  status: "running" | "exited" | "killed" | "timed_out";
  exitCode?: number | null;
  outputFile?: string;
}

/**
 * Loop mode while it is on: the model keeps working, one continuation request
 * after another, until it reports with `done` and the user confirms.
 */
export interface LoopRecord {
  /** What the loop works towards, when one was given (`/loop on TARGET`). */
  target?: string;
  /** The iteration running or last run (1 is the first); 0 before the first. */
  iteration: number;
  maxIterations: number;
  /** The report of `done`, waiting for the user to confirm it or send it back. */
  report?: string;
}

/** The session's one clarification question (ask_user). */
interface QuestionRecord {
  callId: string;
  question: string;
  askedAt: string;
  /** Recorded by `yuj answer`; sent to the model by the next resume. */
  answer?: string;
  /** Set once the answer is in the history as the call's result: never sent twice. */
  delivered?: boolean;
}

export interface SessionState {
  version: 2;
  sessionId: string;
  cwd: string;
  status: SessionStatus;
  task: string;
  /** The name the user gave the session (/rename); listed instead of the task. */
  name?: string;
  createdAt: string;
  updatedAt: string;
  /** The process running the session while its status is `running`. */
  pid?: number;
  /** How the last run ended, and its one-line message. */
  lastReason?: FinishReason;
  lastMessage?: string;
  settings: StoredSettings;
  history: HistoryItem[];
  todos: TodoItem[];
  jobs: JobRecord[];
  /** Calls of the paused turn not yet run; the first one waits for `request`. */
  pending?: { calls: ToolCall[]; request: ApprovalRequest };
  /** The answer recorded by `yuj approve` / `yuj reject`, used by `yuj resume`. */
  answer?: ApprovalAnswer;
  question?: QuestionRecord;
  sessionRules: Rule[];
  /** The main agent's role on the Chord surface, when it is not the builder. */
  mainRole?: string;
  /** MCP servers the operator turned on (true) or off (false) in this session, over the config's `manual`. */
  mcp?: Record<string, boolean>;
  /** Loop mode, while it is on. */
  loop?: LoopRecord;
  usage: Usage;
  /** Last event sequence number written to the trace. */
  lastSeq: number;
}

/** What `session.json` holds: enough to list and pick sessions. */
export interface SessionMeta {
  version: 2;
  id: string;
  cwd: string;
  status: SessionStatus;
  /** The first line of the task. */
  title: string;
  createdAt: string;
  updatedAt: string;
  pid?: number;
  lastReason?: FinishReason;
  /** The unanswered question, while the status is input_required. */
  question?: string;
}

export function newSessionState(init: { sessionId: string; cwd: string; task: string; settings: StoredSettings }): SessionState {
  const now = new Date().toISOString();
  return {
    version: 2,
    ...init,
    status: "running",
    createdAt: now,
    updatedAt: now,
    history: [],
    todos: [],
    jobs: [],
    sessionRules: [],
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    lastSeq: 0,
  };
}

function metaOf(state: SessionState): SessionMeta {
  const meta: SessionMeta = {
    version: 2,
    id: state.sessionId,
    cwd: state.cwd,
    status: state.status,
    title: state.name ?? firstLine(state.task),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
  if (state.pid !== undefined) meta.pid = state.pid;
  if (state.lastReason) meta.lastReason = state.lastReason;
  if (state.status === "input_required" && state.question) meta.question = state.question.question;
  return meta;
}

/**
 * Saves the state, then its metadata; throws StateWriteError when either
 * cannot be written. The conversation log is always fsynced: it is what a
 * step adds. `durable: false` (the steps inside a run) renames state.json and
 * session.json into place without fsyncing them: a killed process loses
 * nothing by that (the rename is atomic and the page cache outlives it), and
 * only a power cut could leave the previous, complete version; the run's end
 * and every pause write durably. Three fsyncs a step cost more than the
 * step itself on a fast model.
 *
 * `log` is the session's writer of the conversation log (what it knows the
 * log holds); without one the log is written over from its first item.
 * `fs`: the calls that write the two files (a test's full disk or refused rename).
 */
export function writeState(
  dir: string,
  state: SessionState,
  opts: { durable?: boolean; log?: HistoryLog; fs?: SyncFileSystem } = {},
): void {
  const durable = opts.durable ?? true;
  state.updatedAt = new Date().toISOString();
  // The conversation first: a state.json never names a step the log lacks.
  try {
    (opts.log ?? new HistoryLog()).sync(dir, state.history, imagesByFile);
  } catch (err) {
    throw new StateWriteError(`could not save the conversation in ${dir}`, err);
  }
  const how = { mode: 0o600, durable, ...(opts.fs ? { fs: opts.fs } : {}) };
  atomicWrite(join(dir, STATE_FILE), `${JSON.stringify({ ...state, history: [] }, imagesByFile, 1)}\n`, how);
  atomicWrite(join(dir, META_FILE), `${JSON.stringify(metaOf(state), null, 1)}\n`, how);
}

function atomicWrite(file: string, text: string, how: AtomicWriteOptions & { fs?: SyncFileSystem }): void {
  try {
    atomicWriteSync(file, text, how);
  } catch (err) {
    throw new StateWriteError(`could not save the session to ${file}`, err);
  }
}

export function readState(dir: string): SessionState | undefined {
  return readSession(dir)?.state;
}

/**
 * The state, the lines of the conversation log that were skipped as damaged,
 * and the log's writer for the session that goes on from this state.
 */
export function readSession(dir: string): { state: SessionState; skipped: SkippedLine[]; log: HistoryLog } | undefined {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const raw = JSON.parse(readFileSync(file, "utf8")) as { version?: number };
    const state = raw.version === 1 ? upgradeV1(raw as StateV1) : raw.version === 2 ? (raw as SessionState) : undefined;
    if (!state) return undefined;
    // Sessions saved before the log kept the conversation in state.json.
    const log = readHistoryLog(dir);
    state.history = log?.history ?? state.history ?? [];
    for (const item of state.history) if (item.role === "tool" && item.images) item.images = loadImages(dir, item.images);
    return { state, skipped: log?.skipped ?? [], log: log?.log ?? new HistoryLog() };
  } catch {
    return undefined;
  }
}

/** The metadata alone; from state.json when session.json is missing (older sessions). */
export function readMeta(dir: string): SessionMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(join(dir, META_FILE), "utf8")) as SessionMeta;
    if (meta.version === 2 && typeof meta.id === "string") return meta;
  } catch {
    // fall through to the full state
  }
  const state = readState(dir);
  return state ? metaOf(state) : undefined;
}

export function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

// Sessions saved before statuses were renamed (version 1) stay readable.
type StateV1 = Omit<SessionState, "version" | "status" | "createdAt" | "todos" | "jobs"> & {
  version: 1;
  status: "running" | "approval_required" | "input_required" | "completed" | "failed" | "cancelled";
};
const V1_STATUS: Record<StateV1["status"], SessionStatus> = {
  running: "running",
  approval_required: "approval_required",
  input_required: "input_required",
  completed: "done",
  failed: "failed",
  cancelled: "paused",
};

function upgradeV1(v1: StateV1): SessionState {
  const created = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-/.exec(v1.sessionId);
  return {
    ...v1,
    version: 2,
    status: V1_STATUS[v1.status] ?? "failed",
    createdAt: created ? `${created[1]}-${created[2]}-${created[3]}T${created[4]}:${created[5]}:${created[6]}.000Z` : v1.updatedAt,
    todos: [],
    jobs: [],
  };
}

// An image saved in the session dir is stored by its file name only: the
// state is rewritten after every step, and megabytes of base64 per image
// would make that slow. readState reads the bytes back.
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
