// What a session knows of its workspace checkpoints, as an append-only log
// beside its state (checkpoints.jsonl): the operator's messages in the order
// sent, each checkpoint (which message it was taken under, its commit on the
// private ref), each operator rewind and each undo of one. The list of
// messages a rewind can go back to is this log replayed: a rewind drops the
// messages from its target on, an undo puts them back.
//
// A new session's folder appears only with its first saved state, while the
// first message's checkpoint may be taken before that: lines wait in memory
// until the folder exists.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openAppendLog } from "../append-log.js";

const CHECKPOINTS_FILE = "checkpoints.jsonl";

/** Why a checkpoint was taken; `rewound`: the work tree as a rewind (or its undo) left it. */
export type CheckpointReason = "message" | "before_step" | "run_end" | "before_rewind" | "rewound";

export type CheckpointRecord =
  /** An operator message; `seq` identifies it across rewinds. */
  | { kind: "message"; seq: number; text: string; at: string }
  /** The work tree under message `message` (a seq), kept by `ref`. */
  | { kind: "checkpoint"; id: number; message: number; tree: string; commit: string; ref: string; reason: CheckpointReason; at: string }
  /** Files and conversation went back to before message `to` (a seq); `dropped` were the messages it removed. */
  | { kind: "rewind"; id: number; to: number; dropped: number[]; before?: number; target?: number; itemsFile: string; historyLength: number; at: string }
  | { kind: "undo"; rewind: number; at: string }
  /** Checkpoints are off for this session, and why (not a git work tree). */
  | { kind: "off"; reason: string; at: string };

export class CheckpointStore {
  readonly records: CheckpointRecord[];
  private waiting: CheckpointRecord[] = [];

  constructor(
    readonly dir: string,
    records: CheckpointRecord[] = [],
  ) {
    this.records = records;
  }

  append(record: CheckpointRecord): void {
    this.records.push(record);
    this.waiting.push(record);
    this.flush();
  }

  /**
   * Writes the lines that waited for the session's folder. A write that
   * fails (a full disk) leaves them waiting for the next: the session's own
   * saving reports such a failure, and a checkpoint's line is not worth
   * stopping the run for.
   */
  flush(): void {
    if (this.waiting.length === 0 || !existsSync(this.dir)) return;
    try {
      const log = openAppendLog(join(this.dir, CHECKPOINTS_FILE));
      try {
        while (this.waiting.length) {
          log.append(JSON.stringify(this.waiting[0]), { sync: true });
          this.waiting.shift();
        }
      } finally {
        log.close();
      }
    } catch {
      // kept in `waiting`
    }
  }

  nextId(kind: "checkpoint" | "rewind"): number {
    return this.records.filter((r) => r.kind === kind).length + 1;
  }

  nextMessageSeq(): number {
    return this.records.filter((r) => r.kind === "message").length + 1;
  }

  checkpoints(): Array<Extract<CheckpointRecord, { kind: "checkpoint" }>> {
    return this.records.filter((r): r is Extract<CheckpointRecord, { kind: "checkpoint" }> => r.kind === "checkpoint");
  }

  lastCheckpoint(): Extract<CheckpointRecord, { kind: "checkpoint" }> | undefined {
    const all = this.checkpoints();
    return all[all.length - 1];
  }

  checkpoint(id: number | undefined): Extract<CheckpointRecord, { kind: "checkpoint" }> | undefined {
    return id === undefined ? undefined : this.checkpoints().find((c) => c.id === id);
  }

  /** The messages a rewind can return to now, oldest first. */
  liveMessages(): Array<Extract<CheckpointRecord, { kind: "message" }>> {
    const bySeq = new Map<number, Extract<CheckpointRecord, { kind: "message" }>>();
    let live: number[] = [];
    const rewinds = new Map<number, Extract<CheckpointRecord, { kind: "rewind" }>>();
    for (const r of this.records) {
      if (r.kind === "message") {
        bySeq.set(r.seq, r);
        live.push(r.seq);
      } else if (r.kind === "rewind") {
        rewinds.set(r.id, r);
        const at = live.indexOf(r.to);
        if (at >= 0) live = live.slice(0, at);
      } else if (r.kind === "undo") {
        const undone = rewinds.get(r.rewind);
        if (undone) live.push(...undone.dropped);
      }
    }
    return live.map((s) => bySeq.get(s)!).filter(Boolean);
  }

  /** The last rewind not undone yet, when nothing was sent since (an undo puts back what it dropped). */
  undoable(): Extract<CheckpointRecord, { kind: "rewind" }> | undefined {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i]!;
      if (r.kind === "message" || r.kind === "undo") return undefined;
      if (r.kind === "rewind") return r;
    }
    return undefined;
  }

  /** Why checkpoints are off for this session, when they are. */
  off(): string | undefined {
    const r = this.records.find((x) => x.kind === "off");
    return r?.kind === "off" ? r.reason : undefined;
  }
}

/** The session's checkpoint log as written; lines that are not whole records are skipped. */
export function readCheckpointStore(dir: string): CheckpointStore {
  const file = join(dir, CHECKPOINTS_FILE);
  const records: CheckpointRecord[] = [];
  if (existsSync(file)) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line) continue;
      try {
        const r = JSON.parse(line) as CheckpointRecord;
        if (r && typeof r === "object" && typeof r.kind === "string") records.push(r);
      } catch {
        // a line a killed process left torn
      }
    }
  }
  return new CheckpointStore(dir, records);
}
