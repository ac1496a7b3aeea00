// How the composer's buffer is drawn: rows with the prompt glyph, the cursor
// cell, paste chips as `[Pasted N lines]`, a window around the cursor when
// the text is tall, and the history search's row while Ctrl+R is on.

import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { Buffer, Token } from "./composer-buffer.js";
import { theme } from "./theme.js";

/** The search row: what is searched for and the entry it found. */
export function renderSearch(query: string, found: string | undefined, width: number): ReactNode {
  const shown = found === undefined ? "no match" : found.replace(/\n/g, " ⏎ ");
  return (
    <Box width={width}>
      <Text wrap="truncate">
        <Text color={theme.accent}>{"history search "}</Text>
        <Text inverse>{query || " "}</Text>
        <Text color={theme.muted}>{" → "}</Text>
        <Text {...(found === undefined ? { color: theme.muted } : {})}>{shown}</Text>
      </Text>
    </Box>
  );
}

export function renderBuffer(b: Buffer, active: boolean, width: number, maxRows: number, placeholder?: string): ReactNode {
  const lines: Token[][] = [[]];
  let [cursorLine, cursorCol] = [0, 0];
  for (let i = 0; i <= b.tokens.length; i++) {
    if (i === b.cursor) [cursorLine, cursorCol] = [lines.length - 1, lines[lines.length - 1]!.length];
    const t = b.tokens[i];
    if (t === "\n") lines.push([]);
    else if (t !== undefined) lines[lines.length - 1]!.push(t);
  }

  // Show a window of rows around the cursor when the text is tall.
  const first = Math.max(0, Math.min(cursorLine - maxRows + 1, lines.length - maxRows));
  const shown = lines.slice(first, first + maxRows);
  const below = lines.length - first - shown.length;
  const more = (n: number, arrow: string) => <Text color={theme.muted}>{`  ${arrow} ${n} more line${n === 1 ? "" : "s"}`}</Text>;
  return (
    <Box flexDirection="column">
      {first > 0 && more(first, "↑")}
      {shown.map((line, n) => {
        const row = first + n;
        const cursorAt = active && row === cursorLine ? cursorCol : -1;
        const empty = b.tokens.length === 0;
        return (
          <Box key={row}>
            <Text color={active ? theme.accent : theme.muted} dimColor={!active}>
              {row === 0 ? "› " : "  "}
            </Text>
            <Box width={width}>
              <Text wrap="wrap" dimColor={!active}>
                {renderLine(line, cursorAt)}
                {empty && placeholder ? <Text color={theme.muted}>{placeholder}</Text> : null}
              </Text>
            </Box>
          </Box>
        );
      })}
      {below > 0 && more(below, "↓")}
    </Box>
  );
}

/** One row as runs of plain text, the cursor cell and chips (few nodes, not one per character). */
function renderLine(line: Token[], cursorAt: number): ReactNode[] {
  const out: ReactNode[] = [];
  let run = "";
  const flush = () => {
    if (run) out.push(run);
    run = "";
  };
  line.forEach((t, i) => {
    const shown = typeof t !== "string" ? chipLabel(t) : t === "\t" ? "    " : t;
    if (typeof t === "string" && i !== cursorAt) return void (run += shown);
    flush();
    out.push(
      <Text key={i} inverse={i === cursorAt} {...(typeof t === "string" ? {} : { color: theme.chip })}>
        {shown}
      </Text>,
    );
  });
  flush();
  if (cursorAt === line.length) out.push(<Text key="cursor" inverse> </Text>);
  return out;
}

/** A chip as the composer shows it: its line count, or its length for one long line. */
function chipLabel(chip: { text: string; lines: number }): string {
  return chip.lines === 1 ? `[Pasted ${chip.text.length} chars]` : `[Pasted ${chip.lines} lines]`;
}
