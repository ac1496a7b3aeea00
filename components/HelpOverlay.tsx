// The key reference and slash commands, over the transcript. The content is
// data (HELP_SECTIONS) so the shell can pass its own when bindings change.

import { Box, Text, useInput } from "ink";
import { useRef, type ReactNode } from "react";
import { truncate } from "../core/text/width.js";
import { theme } from "./theme.js";

interface HelpSection {
  title: string;
  /** [keys, what they do] */
  rows: Array<[string, string]>;
}

export interface HelpOverlayProps {
  onClose(): void;
  width: number;
  height?: number;
  sections?: HelpSection[];
  /** False while something else has the keys. */
  active?: boolean;
}

const HELP_SECTIONS: HelpSection[] = [
  {
    title: "Insert mode (typing a message)",
    rows: [
      ["Enter", "send"],
      ["Shift+Enter, Ctrl+J", "new line"],
      ["↑ / ↓", "previous / next message from history (kept per project)"],
      ["Ctrl+R", "search the history (Ctrl+R older · Enter keep · Esc back)"],
      ["Ctrl+A / Ctrl+E", "start / end of the line"],
      ["Alt+B / Alt+F", "word back / forward"],
      ["Ctrl+W / Alt+Backspace", "delete the word before (to a blank / to punctuation)"],
      ["Ctrl+K / Ctrl+U", "delete to the end / the start of the line"],
      ["Ctrl+X Ctrl+E", "edit the message in $VISUAL / $EDITOR"],
      ["@path, @path:N, @path:A-B", "attach a file (or lines); Tab completes"],
      ["Esc", "to Normal mode"],
    ],
  },
  {
    title: "Normal mode (reading the transcript)",
    rows: [
      ["i, a", "to Insert mode"],
      ["j / k", "next / previous card"],
      ["o, Space, Enter", "fold or unfold the card"],
      ["G, gg", "bottom, top"],
      ["Ctrl+F / Ctrl+B", "page down / up"],
      ["/ then n, N", "search, next / previous match"],
      ["Ctrl+T", "card directory"],
      ["J", "jobs panel (↑/↓ select, x kill, Esc close)"],
      ["yy", "copy the focused card (OSC 52)"],
      ["e", "edit the focused message and go on from there"],
      ["Esc Esc", "on a focused message: rewind files and conversation to before it (/rewind lists them)"],
      ["$, Ctrl+E", "session stats, recent errors"],
      ["Ctrl+Y", "YOLO on / off"],
      ["Tab", "next main role (Chord: builder, planner, …)"],
      ["Ctrl+O", "the MCP servers: state, tools; Enter turns one on / off"],
      ["s", "side panel on / off (narrow terminal: todos, jobs and agents overlay)"],
      ["Shift+Tab", "next agent's transcript: main, then each worker (either mode)"],
      ["Esc", "cancel the running turn"],
      ["q q, Ctrl+C Ctrl+C", "quit"],
      ["?", "this help"],
    ],
  },
  {
    title: "Approvals",
    rows: [
      ["y", "allow once"],
      ["a", "allow always (Enter: this session, p: project config)"],
      ["n, Esc", "reject"],
      ["r", "reject with a message"],
      ["E", "edit the arguments as JSON, then allow"],
      ["Ctrl+X Ctrl+E (in E)", "edit the JSON in $VISUAL / $EDITOR"],
    ],
  },
  {
    title: "Loop report (done, in loop mode)",
    rows: [
      ["y, A", "confirm the report and leave the loop"],
      ["V", "read the whole report (j/k scroll, q closes)"],
      ["n, R", "send it back with what is still to do"],
    ],
  },
  {
    title: "Slash commands",
    rows: [
      ["/help", "this help"],
      ["/model", "switch the model"],
      ["/compact", "summarise the conversation to free context"],
      ["/clear, /new", "a new conversation (this one stays saved)"],
      ["/resume", "open another session of this project"],
      ["/rename NAME", "name this session"],
      ["/export [PATH] [--json]", "write the transcript"],
      ["/yolo on|off", "skip ordinary approvals"],
      ["/loop on [TARGET]|off", "loop mode: keep working until done"],
      ["/rules", "permission rules; x removes one"],
      ["/stats", "tokens, cost, time, requests"],
      ["/init", "write AGENTS.md from the repository"],
      ["/jobs", "jobs panel"],
      ["/todos", "show the todo list"],
      ["/quit", "quit"],
    ],
  },
];

export function HelpOverlay({ onClose, width, height, sections = HELP_SECTIONS, active = true }: HelpOverlayProps): ReactNode {
  const live = useRef(onClose);
  live.current = onClose;
  useInput(
    (input, key) => {
      if (key.escape || input === "?") live.current();
    },
    { isActive: active },
  );

  const keyWidth = Math.min(22, Math.max(...sections.flatMap((s) => s.rows.map(([k]) => k.length))) + 2);
  const lines: ReactNode[] = [];
  sections.forEach((s, i) => {
    if (i) lines.push(<Text key={`gap${i}`}> </Text>);
    lines.push(
      <Text key={`t${i}`} bold color={theme.accent}>
        {truncate(s.title, width)}
      </Text>,
    );
    s.rows.forEach(([k, what], j) =>
      lines.push(
        <Text key={`r${i}.${j}`} wrap="truncate">
          <Text bold>{`  ${k}`.padEnd(keyWidth + 2)}</Text>
          {truncate(what, Math.max(0, width - keyWidth - 2))}
        </Text>,
      ),
    );
  });
  const footer = (
    <Text key="footer" color={theme.muted}>
      Esc or ? closes
    </Text>
  );
  // When the screen is short, the footer stays and the list is cut.
  const room = height === undefined ? lines.length : Math.max(0, height - 2);
  return (
    <Box flexDirection="column" width={width} {...(height === undefined ? {} : { height })} overflow="hidden">
      {lines.slice(0, room)}
      {room < lines.length ? <Text color={theme.muted}>{`… ${lines.length - room} more lines`}</Text> : null}
      {footer}
    </Box>
  );
}
