// The TUI's actions (components/tui-actions.ts) for one open session: the
// transcript export, AGENTS.md, the clipboard through the terminal, and the
// way to another session (this one is closed first and stays saved).

import type { Env } from "../../core/paths.js";
import type { SessionController } from "../../core/session-controller.js";
import type { TuiActions } from "../../components/tui-actions.js";
import { initAgents } from "../agents-init.js";
import { listSessions } from "../find-session.js";
import { writeExport } from "../transcript-export.js";

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
  };
}
