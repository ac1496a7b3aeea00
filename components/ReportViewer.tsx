// A long Markdown text on the whole screen (done's report in loop mode):
// rendered once for the width, read by scrolling. Keys come through the
// view's key router, as the other panels' do: j/k and the arrows a line,
// Space/b and PgDn/PgUp a page, g/G the top and the end, q or Esc closes.

import { Box, Text } from "ink";
import { useMemo, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import { renderMarkdown } from "./cards/markdown.js";
import type { KeyHandler } from "./Composer.js";
import { truncate } from "../core/text/width.js";
import { theme } from "./theme.js";

export interface ReportViewerProps {
  title: string;
  markdown: string;
  width: number;
  height: number;
  color: boolean;
  keys: MutableRefObject<KeyHandler | undefined>;
  onClose(): void;
}

export function ReportViewer(p: ReportViewerProps): ReactNode {
  const lines = useMemo(() => renderMarkdown(p.markdown, Math.max(10, p.width - 2), p.color), [p.markdown, p.width, p.color]);
  const room = Math.max(1, p.height - 2);
  const last = Math.max(0, lines.length - room);
  const [top, setTop] = useState(0);
  // Keys arrive faster than frames: each starts where the last one left.
  const at = useRef(0);
  at.current = Math.min(at.current, last);
  const live = useRef({ last, room, onClose: p.onClose });
  live.current = { last, room, onClose: p.onClose };
  p.keys.current = (input, key) => {
    const x = live.current;
    if (key.escape || input === "q") return x.onClose();
    const to = (line: number) => {
      at.current = Math.max(0, Math.min(x.last, line));
      setTop(at.current);
    };
    if (input === "j" || key.downArrow) return to(at.current + 1);
    if (input === "k" || key.upArrow) return to(at.current - 1);
    if (input === " " || key.pageDown || (key.ctrl && input === "f")) return to(at.current + x.room);
    if (input === "b" || key.pageUp || (key.ctrl && input === "b")) return to(at.current - x.room);
    if (input === "g") return to(0);
    if (input === "G") return to(x.last);
  };
  const first = Math.min(top, last);
  const shown = lines.slice(first, first + room);
  const where = lines.length <= room ? "all" : `lines ${first + 1}-${first + shown.length} of ${lines.length}`;
  return (
    <Box flexDirection="column" width={p.width} height={p.height} overflow="hidden">
      <Text bold color={theme.accent}>
        {truncate(`${p.title} · ${where}`, p.width)}
      </Text>
      <Box flexDirection="column" height={room} overflow="hidden">
        {shown.map((line, i) => (
          <Text key={first + i} wrap="truncate">
            {` ${line}` || " "}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>{truncate("j/k or ↑/↓ scroll · Space/b page · g/G top/end · q/Esc close", p.width)}</Text>
    </Box>
  );
}
