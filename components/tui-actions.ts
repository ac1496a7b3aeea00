// What the view asks of the front end that runs it, beyond the session's
// operations: files it writes for the user, the clipboard, and other
// sessions to open. app/tui implements it; the view only calls it.

import type { RewindPlan, RewindPoint } from "../core/checkpoints/rewind.js";
import type { SessionView } from "../core/reducer.js";
import type { PickerSession } from "./SessionPicker.js";
import type { RewindTarget } from "./ui-state.js";

/** A front end's answer: what to tell the user (`ok` false: an error). */
interface ActionOutcome {
  ok: boolean;
  text: string;
}

export interface TuiActions {
  /** Writes the transcript: Markdown, or with `json` the messages and the events. */
  exportTranscript(view: SessionView, opts: { path?: string; json: boolean }): ActionOutcome;
  /** Writes AGENTS.md from what the repository shows; `exists` when there is one and `overwrite` is false. */
  initAgents(overwrite: boolean): ActionOutcome | { exists: string };
  /** Puts text on the terminal's clipboard (OSC 52). */
  copy(text: string): void;
  /** This project's other sessions, newest first, for /resume. */
  sessions(): PickerSession[];
  /** Leaves this session (it stays saved) for a new one or a stored one. */
  switchTo(target: { kind: "new" } | { kind: "resume"; id: string }): void;
  /** The messages a rewind returns to, whether the last rewind can be undone, and why files are not restored when they are not. */
  rewindPoints(): Promise<{ points: RewindPoint[]; undo: boolean; off?: string } | { error: string }>;
  /** What rewinding to message n (or undoing the last rewind) would do; nothing changes yet. */
  planRewind(target: RewindTarget): Promise<RewindPlan | { error: string }>;
  /** Carries the plan out; `draft`: the message rewound to, to edit and send again. */
  applyRewind(plan: RewindPlan): Promise<ActionOutcome & { draft?: string }>;
}
