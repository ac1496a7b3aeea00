// The TUI's actions (components/tui-actions.ts) for one open session: the
// transcript export, AGENTS.md, the clipboard through the terminal, and the
// way to another session (this one is closed first and stays saved).

import type { Env } from "../../core/paths.js";
import type { SessionController } from "../../core/session-controller.js";
import type { TuiActions } from "../../components/tui-actions.js";
import { initAgents } from "../agents-init.js";
import { listSessions } from "../find-session.js";
import { writeExport } from "../transcript-export.js";
import type { Checkpointer } from "../../core/checkpoints/recorder.js";
import { applyPlan, planRewind, planUndo, rewindPoints, RewindError, type RewindContext } from "../../core/checkpoints/rewind.js";
import type { Emit } from "../../core/events.js";
import type { SessionRecord } from "../../core/session-record.js";

/** Where the TUI goes after this session: a new one, or a stored one by id. */
export type NextSession = { kind: "new" } | { kind: "resume"; id: string };

export interface ActionInputs {
  cwd: string;
  env: Env;
  sessionId: string;
  traceFile: string;
  controller: SessionController;
  /** The terminal itself, under the frame writer. */
  terminal: NodeJS.WritableStream;
  /** Closes this session and opens `next`. */
  leave(next: NextSession): void;
  /** The session's checkpoints and saved state, for /rewind; `emit` tells the transcript. */
  rewind: { checkpoints: Checkpointer; record: SessionRecord; sessionDir: string; emit: Emit };
}

export function createTuiActions(x: ActionInputs): TuiActions {
  return {
    exportTranscript(view, opts) {
      try {
        const file = writeExport({ view, history: x.controller.history(), traceFile: x.traceFile, cwd: x.cwd, json: opts.json, ...(opts.path ? { path: opts.path } : {}) });
        return { ok: true, text: `exported the ${opts.json ? "messages and events (JSON)" : "transcript (Markdown)"} to ${file}` };
      } catch (err) {
        return { ok: false, text: `could not export: ${(err as Error).message}` };
      }
    },
    initAgents(overwrite) {
      try {
        const out = initAgents(x.cwd, overwrite);
        return "exists" in out ? out : { ok: true, text: `wrote ${out.written}: fill in what it leaves open` };
      } catch (err) {
        return { ok: false, text: `could not write AGENTS.md: ${(err as Error).message}` };
      }
    },
    copy(text) {
      // OSC 52: the terminal (or tmux, or ssh's far end) puts it on the clipboard.
      x.terminal.write(`\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`);
    },
    sessions: () =>
      listSessions(x.env)
        .filter((s) => s.meta.cwd === x.cwd && s.meta.id !== x.sessionId && s.status !== "running")
        .map((s) => ({ id: s.meta.id, status: s.status, updatedAt: s.meta.updatedAt, title: s.meta.title, cwd: s.meta.cwd })),
    switchTo: (target) => x.leave(target),
    ...rewindActions(x),
  };
}

type RewindActions = Pick<TuiActions, "rewindPoints" | "planRewind" | "applyRewind">;

/** /rewind's work: the same planning and applying as `yuj rewind`, on the session this process runs. */
function rewindActions(x: ActionInputs): RewindActions {
  const ctx: RewindContext = { store: x.rewind.checkpoints.store, record: x.rewind.record, sessionId: x.sessionId, sessionDir: x.rewind.sessionDir, cwd: x.cwd };
  const busy = () => (x.controller.running() ? "a turn is running: wait for it to end, or cancel it (Esc), before rewinding" : undefined);
  const failure = (err: unknown) => ({ error: err instanceof RewindError ? err.message : `the rewind failed: ${(err as Error).message}` });
  return {
    async rewindPoints() {
      try {
        await x.rewind.checkpoints.settled();
        const off = ctx.store.off();
        return { points: await rewindPoints(ctx), undo: ctx.store.undoable() !== undefined, ...(off ? { off } : {}) };
      } catch (err) {
        return failure(err);
      }
    },
    async planRewind(target) {
      const problem = busy();
      if (problem) return { error: problem };
      try {
        await x.rewind.checkpoints.settled();
        if (target === "undo") return await planUndo(ctx);
        return await planRewind(ctx, typeof target === "number" ? target : await numberOf(ctx, target));
      } catch (err) {
        return failure(err);
      }
    },
    async applyRewind(plan) {
      const problem = busy();
      if (problem) return { ok: false, text: problem };
      try {
        await applyPlan(ctx, plan);
      } catch (err) {
        return { ok: false, text: failure(err).error };
      }
      const files = plan.files.length ? `${plan.files.length} file${plan.files.length === 1 ? "" : "s"} restored` : "no file changed";
      const text =
        plan.kind === "undo"
          ? `Rewind undone: ${plan.items} conversation items back, ${files}.`
          : `Rewound to before "${plan.point!.text.split("\n")[0]}": ${plan.items} conversation items cut, ${files}. /rewind can undo it; the message is in the composer.`;
      x.rewind.emit({ type: "notice", level: "info", text });
      return { ok: true, text, ...(plan.kind === "rewind" ? { draft: plan.point!.text } : {}) };
    },
  };
}

/** The number of the message a card shows: the `occurrence`-th of those with its text (the last, when fewer remain). */
async function numberOf(ctx: RewindContext, target: { message: string; occurrence: number }): Promise<number> {
  const same = (await rewindPoints(ctx)).filter((p) => p.text === target.message);
  const hit = same[Math.min(target.occurrence, same.length - 1)];
  if (!hit) throw new RewindError("that message is no longer in the conversation (an earlier rewind cut it)");
  return hit.n;
}
