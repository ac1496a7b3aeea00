// An overlay of rows over the transcript: the stats, the recent errors, the
// permission rules (x removes the selected one) and the session picker
// (Enter opens the selected one). j/k and the arrows move; Esc or q closes.
// Keys come through the view's key router, as the jobs panel's do.

import { Box, Text } from "ink";
import { useRef, useState, type MutableRefObject, type ReactNode } from "react";
import type { KeyHandler } from "./Composer.js";
import { oneLine } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import { theme } from "./theme.js";

export interface ListPanelProps {
  title: string;
  rows: readonly string[];
  /** Rows can be selected (a marker shows which); without it they are only read. */
  selectable?: boolean;
  /** Keys for the selected row, named in the footer: `x` → remove, Enter → open. */
  onKey?: { keys: string; label: string; run(index: number): void };
  empty: string;
  onClose(): void;
  width: number;
  height: number;
  keys: MutableRefObject<KeyHandler | undefined>;
}

export function ListPanel(p: ListPanelProps): ReactNode {
  const [selected, setSelected] = useState(0);
  const at = useRef(0);
  at.current = Math.min(selected, Math.max(0, p.rows.length - 1));
  const live = useRef(p);
  live.current = p;
  p.keys.current = (input, key) => {
    const x = live.current;
    if (key.escape || input === "q") return x.onClose();
    const move = (d: number) => {
      at.current = Math.max(0, Math.min(x.rows.length - 1, at.current + d));
      setSelected(at.current);
    };
    if (input === "j" || key.downArrow) return move(1);
    if (input === "k" || key.upArrow) return move(-1);
    if (!x.onKey || x.rows.length === 0) return;
    const hit = x.onKey.keys === "Enter" ? key.return : x.onKey.keys.includes(input);
    if (hit) x.onKey.run(at.current);
  };
  const room = Math.max(1, p.height - 2);
  const first = Math.max(0, Math.min(at.current - room + 1, p.rows.length - room));
  const shown = p.rows.slice(first, first + room);
  const footer = `${p.selectable ? "↑/↓ or j/k select · " : ""}${p.onKey ? `${p.onKey.keys} ${p.onKey.label} · ` : ""}Esc/q close`;
  return (
    <Box flexDirection="column" width={p.width} height={p.height} overflow="hidden">
      <Text bold color={theme.accent}>
        {truncate(p.title, p.width)}
      </Text>
      {p.rows.length === 0 ? <Text color={theme.muted}>{truncate(p.empty, p.width)}</Text> : null}
      {shown.map((row, i) => {
        const mine = p.selectable && first + i === at.current;
        return (
          <Text key={first + i} wrap="truncate" inverse={mine}>
            {truncate(`${p.selectable ? (mine ? "› " : "  ") : ""}${oneLine(row)}`, p.width)}
          </Text>
        );
      })}
      <Text color={theme.muted}>{truncate(footer, p.width)}</Text>
    </Box>
  );
}
