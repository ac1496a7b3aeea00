// /rewind and Esc Esc: the session's messages, each with the files the
// steps after it changed (Enter picks one), then what the rewind would do —
// the conversation cut, the files written, the patch, the files changed
// outside yuj it would overwrite — and `y` carries it out. Nothing changes
// before `y`.

import { useEffect, useState, type MutableRefObject, type ReactNode } from "react";
import type { RewindPlan } from "../core/checkpoints/rewind.js";
import { planSummary, pointLine } from "../core/checkpoints/plan-text.js";
import type { KeyHandler } from "./Composer.js";
import { ListPanel } from "./ListPanel.js";
import type { TuiActions } from "./tui-actions.js";
import type { RewindTarget } from "./ui-state.js";


export interface RewindPanelProps {
  actions: TuiActions | undefined;
  /** Set: the plan for this message (or the undo) waits for `y`; unset: the list. */
  target?: RewindTarget;
  onPick(target: RewindTarget): void;
  /** The rewind is done (or failed): what to say, and the message to put in the composer. */
  onDone(text: string, draft?: string): void;
  onClose(): void;
  width: number;
  height: number;
  keys: MutableRefObject<KeyHandler | undefined>;
}

const UNDO_ROW = "↶ undo the last rewind";

export function RewindPanel(p: RewindPanelProps): ReactNode {
  return p.target === undefined ? <RewindList {...p} /> : <RewindConfirm {...p} target={p.target} />;
}

function RewindList(p: RewindPanelProps): ReactNode {
  const [rows, setRows] = useState<{ lines: string[]; targets: RewindTarget[]; note: string } | undefined>();
  useEffect(() => {
    let live = true;
    void p.actions?.rewindPoints().then((got) => {
      if (!live) return;
      if ("error" in got) return setRows({ lines: [], targets: [], note: got.error });
      const lines = got.points.map(pointLine);
      const targets: RewindTarget[] = got.points.map((pt) => pt.n);
      if (got.undo) {
        lines.push(UNDO_ROW);
        targets.push("undo");
      }
      setRows({ lines, targets, note: got.off ? `checkpoints are off (${got.off}): the conversation only` : "" });
    });
    return () => {
      live = false;
    };
  }, [p.actions]);
  const title = `Rewind to before a message: files and conversation${rows?.note ? ` · ${rows.note}` : ""}`;
  return (
    <ListPanel
      title={title}
      rows={rows?.lines ?? []}
      selectable
      empty={rows ? "No message to rewind to in this session." : "Reading the checkpoints…"}
      onKey={{ keys: "Enter", label: "show what it restores", run: (i) => rows?.targets[i] !== undefined && p.onPick(rows.targets[i]!) }}
      onClose={p.onClose}
      width={p.width}
      height={p.height}
      keys={p.keys}
    />
  );
}

function RewindConfirm(p: RewindPanelProps & { target: RewindTarget }): ReactNode {
  const [plan, setPlan] = useState<RewindPlan | { error: string } | undefined>();
  useEffect(() => {
    let live = true;
    void p.actions?.planRewind(p.target).then((got) => live && setPlan(got));
    return () => {
      live = false;
    };
  }, [p.actions, p.target]);
  const ready = plan && !("error" in plan) ? plan : undefined;
  const rows = ready ? [...planSummary(ready), "", ...ready.diff.split("\n")] : plan && "error" in plan ? [plan.error] : [];
  const apply = () => {
    if (!ready || !p.actions) return;
    void p.actions.applyRewind(ready).then((out) => p.onDone(out.text, out.draft));
  };
  const warn = ready?.outside.length ? " (overwrites files changed outside yuj)" : "";
  const what = p.target === "undo" ? "Undo the last rewind" : "Rewind files and conversation";
  return (
    <ListPanel
      title={ready ? `${what}: y applies${warn}` : what}
      rows={rows}
      selectable
      empty="Working out what the rewind restores…"
      {...(ready ? { onKey: { keys: "y", label: "apply", run: apply } } : {})}
      onClose={p.onClose}
      width={p.width}
      height={p.height}
      keys={p.keys}
    />
  );
}
