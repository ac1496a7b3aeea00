// `yuj --resume` without an id: the stored sessions, this directory's first,
// one of them picked with the keys. It only shows and reports: the caller
// decides whether a picked session can be opened and, when not, passes the
// reason back as `refusal`.

import { Box, Text, useInput } from "ink";
import { useRef, useState, type ReactNode } from "react";
import { oneLine, safeText } from "../core/text/safe.js";
import { truncate, truncateStart, widthOf } from "../core/text/width.js";
import { short, theme } from "./theme.js";

export interface PickerSession {
  id: string;
  /** As `yuj sessions` shows it (`interrupted` included). */
  status: string;
  /** ISO time of the last change. */
  updatedAt: string;
  /** The task's first line. */
  title: string;
  cwd: string;
}

export interface SessionPickerProps {
  /** Newest first; split here into this directory's and the others. */
  sessions: PickerSession[];
  /** The directory yuj was started in. */
  cwd: string;
  width: number;
  height: number;
  /** Why the session `id` cannot be opened; shown while it is selected. */
  refusal?: { id: string; text: string };
  onPick(id: string): void;
  onQuit(): void;
}

const KEYS = "↑/↓ or j/k move · Enter open · Esc or q quit";
const ID_WIDTH = 22; // 20240101-120000-abc123
const WHEN_WIDTH = 16; // 2024-01-01 12:00

const STATUS_COLOR: Record<string, string> = {
  done: theme.ok,
  failed: theme.error,
  interrupted: theme.warn,
  approval_required: theme.warn,
  input_required: theme.warn,
  running: theme.accent,
};

type Line = { kind: "heading"; text: string } | { kind: "session"; session: PickerSession; index: number };

export function SessionPicker({ sessions, cwd, width, height, refusal, onPick, onQuit }: SessionPickerProps): ReactNode {
  const here = sessions.filter((s) => s.cwd === cwd);
  const others = sessions.filter((s) => s.cwd !== cwd);
  const ordered = [...here, ...others];
  const [selected, setSelected] = useState(0);
  const at = Math.min(selected, Math.max(0, ordered.length - 1));
  // Keys can arrive together (a held j, then Enter) before React renders
  // again: the handler reads and moves the selection through a ref, never a
  // stale render's copy.
  const live = useRef({ ordered, at, onPick, onQuit });
  live.current = { ...live.current, ordered, onPick, onQuit };
  live.current.at = Math.min(live.current.at, Math.max(0, ordered.length - 1));
  useInput((input, key) => {
    const now = live.current;
    const move = (to: number) => {
      now.at = Math.max(0, Math.min(now.ordered.length - 1, to));
      setSelected(now.at);
    };
    if (key.escape || input === "q" || (key.ctrl && input === "c")) now.onQuit();
    else if (key.upArrow || input === "k") move(now.at - 1);
    else if (key.downArrow || input === "j") move(now.at + 1);
    else if (key.return && now.ordered[now.at]) now.onPick(now.ordered[now.at]!.id);
  });

  if (ordered.length === 0) {
    return (
      <Box flexDirection="column" width={width} height={height} paddingX={1}>
        <Text bold color={theme.accent}>Resume a session</Text>
        <Text> </Text>
        <Text>No sessions yet, here or anywhere else.</Text>
        <Text>Start one: run yuj and type a message, or run a task headless with yuj code "TASK".</Text>
        <Box flexGrow={1} />
        <Text color={theme.muted}>Esc or q quit</Text>
      </Box>
    );
  }

  const inner = Math.max(20, width - 2);
  const statusWidth = Math.max(6, ...ordered.map((s) => s.status.length));
  const lines: Line[] = [{ kind: "heading", text: `This directory  ${short(cwd)}` }];
  if (here.length === 0) lines.push({ kind: "heading", text: "  (no sessions here yet)" });
  here.forEach((session, i) => lines.push({ kind: "session", session, index: i }));
  if (others.length) {
    lines.push({ kind: "heading", text: "Other directories" });
    others.forEach((session, i) => lines.push({ kind: "session", session, index: here.length + i }));
  }

  const shownRefusal = refusal && ordered[at]?.id === refusal.id ? refusal.text : undefined;
  // Word wrapping ends lines early: a row's worth of slack per line keeps the estimate on the safe side.
  const refusalRows = shownRefusal ? Math.ceil(widthOf(shownRefusal) / Math.max(10, inner - 16)) : 0;
  // Title, column names, and the keys line take three rows; the list gets the rest.
  const room = Math.max(1, height - 3 - refusalRows);
  const selectedLine = lines.findIndex((l) => l.kind === "session" && l.index === at);
  // The selection is kept in the middle of the window where the list allows.
  const first = Math.max(0, Math.min(selectedLine - Math.floor(room / 2), lines.length - room));
  const visible = lines.slice(first, first + room);

  const head = `  ${"ID".padEnd(ID_WIDTH)}  ${"STATUS".padEnd(statusWidth)}  ${"UPDATED (UTC)".padEnd(WHEN_WIDTH)}  TASK`;
  return (
    <Box flexDirection="column" width={width} height={height} paddingX={1}>
      <Text>
        <Text bold color={theme.accent}>Resume a session</Text>
        <Text color={theme.muted}>{`  ${ordered.length} stored, newest first`}</Text>
      </Text>
      <Text color={theme.muted}>{truncate(head, inner)}</Text>
      {visible.map((line, i) =>
        line.kind === "heading" ? (
          <Text key={`h${first + i}`} bold>{truncate(line.text, inner)}</Text>
        ) : (
          <SessionRow key={line.session.id} session={line.session} selected={line.index === at} statusWidth={statusWidth} width={inner} showCwd={line.session.cwd !== cwd} />
        ),
      )}
      <Box flexGrow={1} />
      {shownRefusal ? <Text color={theme.warn}>{safeText(shownRefusal)}</Text> : null}
      <Text color={theme.muted}>{truncate(KEYS, inner)}</Text>
    </Box>
  );
}

function SessionRow(props: { session: PickerSession; selected: boolean; statusWidth: number; width: number; showCwd: boolean }): ReactNode {
  const { session: s, selected, statusWidth, width, showCwd } = props;
  const lead = `${selected ? "›" : " "} ${oneLine(s.id).padEnd(ID_WIDTH)}  `;
  const when = `  ${s.updatedAt.slice(0, 16).replace("T", " ").padEnd(WHEN_WIDTH)}  `;
  const rest = Math.max(0, width - widthOf(lead) - statusWidth - widthOf(when));
  const title = oneLine(s.title) || "(no task yet)";
  // Another directory's sessions name it, shortened from the left where the folder's own name is.
  const where = showCwd ? `  ${truncateStart(oneLine(short(s.cwd)), Math.max(8, Math.floor(rest / 3)))}` : "";
  return (
    <Text inverse={selected} wrap="truncate">
      <Text>{lead}</Text>
      <Text color={STATUS_COLOR[s.status]}>{s.status.padEnd(statusWidth)}</Text>
      <Text>{when}</Text>
      <Text>{truncate(title, Math.max(0, rest - widthOf(where)))}</Text>
      <Text color={theme.muted}>{where}</Text>
    </Text>
  );
}
