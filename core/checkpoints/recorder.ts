// The session's workspace checkpoints as it runs: the work tree is recorded
// when an operator message starts a run segment, before each step that may
// change files, and when the segment ends. A checkpoint whose tree equals the
// last one's makes no new commit (only a line saying which message it was
// taken under), so a run of read-only steps costs one `git add` each.
//
// Off the hot path: the message's checkpoint is taken while the model's
// first request is in flight; a step that may change files waits for the
// checkpoints queued before it, never the other way round. They run one at
// a time, in order.
//
// Outside a git work tree checkpoints are off: the log says so once (a
// rewind then restores the conversation only), and the first step that may
// change files says so as a notice.

import { dirname } from "node:path";
import type { CoreEvent, Emit } from "../events.js";
import { pruneCheckpoints } from "./prune.js";
import { commitTree, openRepo, writeWorkTree, type Repo } from "./git-tree.js";
import { CheckpointStore, readCheckpointStore, type CheckpointReason, type CheckpointRecord } from "./store.js";

type CheckpointRow = Extract<CheckpointRecord, { kind: "checkpoint" }>;

export interface Checkpointer {
  readonly store: CheckpointStore;
  /** Feed the session's events through here: messages and run ends are checkpointed. */
  observe(event: CoreEvent): void;
  /** Resolves once the work tree is checkpointed, before a step that may change files. */
  beforeStep(): Promise<void>;
  /** A checkpoint now, for `reason`; undefined when checkpoints are off. */
  take(reason: CheckpointReason): Promise<CheckpointRow | undefined>;
  /** Resolves when every queued checkpoint is done (the session closes). */
  settled(): Promise<void>;
}

export interface CheckpointerOptions {
  cwd: string;
  sessionId: string;
  sessionDir: string;
  emit: Emit;
  /** [workspace_checkpoints].enabled */
  enabled: boolean;
  /** [workspace_checkpoints].prune_after_days: finished sessions' checkpoints older than this go, first thing. */
  pruneAfterDays?: number;
}

/**
 * Appends a checkpoint of `tree` to the log: a new commit on its own ref, or,
 * when the tree is the last checkpoint's, that checkpoint's commit again.
 */
export async function recordCheckpoint(
  store: CheckpointStore,
  repo: Repo,
  sessionId: string,
  tree: string,
  reason: CheckpointReason,
  message = messagesSoFar(store),
): Promise<CheckpointRow> {
  const last = store.lastCheckpoint();
  const id = store.nextId("checkpoint");
  const unchanged = last !== undefined && last.tree === tree;
  const ref = unchanged ? last.ref : checkpointRef(sessionId, id);
  const commit = unchanged ? last.commit : await commitTree(repo, tree, ref, `yuj checkpoint ${sessionId} #${id} (${reason})`, last?.commit);
  const row: CheckpointRow = { kind: "checkpoint", id, message, tree, commit, ref, reason, at: new Date().toISOString() };
  store.append(row);
  return row;
}

/** The operator's messages so far: a checkpoint belongs to the latest. */
function messagesSoFar(store: CheckpointStore): number {
  return store.records.filter((r) => r.kind === "message").length;
}

/** The ref one checkpoint is kept by: private to yuj and to the session. */
function checkpointRef(sessionId: string, id: number): string {
  return `refs/yuj/${sessionId}/${id}`;
}

export function createCheckpointer(opts: CheckpointerOptions): Checkpointer {
  const store = readCheckpointStore(opts.sessionDir);
  let repo: Promise<Repo | { none: string }> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let told = false;

  const repoOnce = () => (repo ??= openRepo(opts.cwd));
  if (opts.enabled && opts.pruneAfterDays !== undefined) {
    const days = opts.pruneAfterDays;
    queue = pruneCheckpoints({ cwd: opts.cwd, sessionsDir: dirname(opts.sessionDir), maxAgeDays: days, keep: opts.sessionId }).catch(() => undefined);
  }

  const snapshot = async (reason: CheckpointReason, message: number): Promise<CheckpointRow | undefined> => {
    if (!opts.enabled) return undefined;
    const found = await repoOnce();
    if ("none" in found) {
      if (!store.off()) store.append({ kind: "off", reason: found.none, at: new Date().toISOString() });
      if (reason === "before_step" && !told) {
        told = true;
        opts.emit({ type: "notice", level: "info", text: `Workspace checkpoints are off: ${found.none}. A rewind restores the conversation only.` });
      }
      return undefined;
    }
    return recordCheckpoint(store, found, opts.sessionId, await writeWorkTree(found), reason, message);
  };

  // A failed checkpoint costs that checkpoint only: the session goes on, and says so.
  const enqueue = (reason: CheckpointReason): Promise<CheckpointRow | undefined> => {
    // The message it belongs to is the one current now, not when its turn in the queue comes.
    const message = messagesSoFar(store);
    const run = queue.then(() => snapshot(reason, message));
    queue = run.catch((err: unknown) => {
      opts.emit({ type: "notice", level: "warning", text: `workspace checkpoint not taken: ${(err as Error).message}` });
    });
    return run;
  };

  return {
    store,
    observe(event) {
      if (event.agentId !== "main") return;
      if (event.type === "user_message") {
        store.append({ kind: "message", seq: store.nextMessageSeq(), text: event.text, at: event.ts });
        void enqueue("message").catch(() => undefined);
      } else if (event.type === "run_finished") {
        void enqueue("run_end").catch(() => undefined);
      }
    },
    async beforeStep() {
      await enqueue("before_step").catch(() => undefined);
    },
    take: (reason) => enqueue(reason),
    async settled() {
      await queue;
      store.flush();
    },
  };
}
