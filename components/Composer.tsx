// The multi-line message input. Ink's own text input treats a pasted
// "abc\r" as typing, so editing, newlines and pastes are handled here.
//
// The buffer is a list of tokens: one code point each (so an emoji never
// splits under the cursor), or a paste chip that stands for a long paste as a
// whole. Chips are shown as `[Pasted N lines]`, move and delete as one
// character, and expand to their full text when the message is sent.

import { Box, Text, useInput, useStdin, type Key } from "ink";
import { useEffect, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import { dropControls } from "../core/text/safe.js";
import { theme } from "./theme.js";

/** A key as Ink reports it. */
export type KeyHandler = (input: string, key: Key) => void;

export interface ComposerProps {
  active: boolean;
  /**
   * Set: the composer takes keys only through this handler, which the view
   * calls for each key routed to it (a key that switches to Insert mode and
   * the text right after it arrive before React renders again).
   */
  keys?: MutableRefObject<KeyHandler | undefined>;
  /** Set: the view can replace the text (a completed command), cursor at its end. */
  control?: MutableRefObject<{ setText(text: string): void } | undefined>;
  width: number;
  /** Sent messages, oldest first: Up recalls from the end. */
  history: string[];
  onSubmit(text: string): void;
  onChange?(text: string): void;
  placeholder?: string;
  /** Most rows shown; the view follows the cursor beyond that. */
  maxRows?: number;
}

interface Chip {
  text: string;
  lines: number;
}
type Token = string | Chip;
interface Buffer {
  tokens: Token[];
  cursor: number;
}

/** Pastes longer than this many lines are collapsed into a chip. */
const PASTE_LINES = 5;
/** A bracketed paste whose end marker never comes is closed after this. */
const PASTE_TIMEOUT_MS = 500;
const EMPTY: Buffer = { tokens: [], cursor: 0 };

const textOf = (tokens: Token[]) => tokens.map((t) => (typeof t === "string" ? t : t.text)).join("");

/** Terminal input as buffer text: CR/CRLF become LF, other controls are dropped. */
const clean = (text: string) => dropControls(text.replace(/\r\n?/g, "\n"));

function tokensOf(text: string, collapse: boolean): Token[] {
  const t = clean(text);
  const lines = t.replace(/\n$/, "").split("\n").length;
  return collapse && lines > PASTE_LINES ? [{ text: t, lines }] : Array.from(t);
}

function lineStart(tokens: Token[], i: number): number {
  while (i > 0 && tokens[i - 1] !== "\n") i--;
  return i;
}

function lineEnd(tokens: Token[], i: number): number {
  while (i < tokens.length && tokens[i] !== "\n") i++;
  return i;
}

function insert(b: Buffer, add: Token[]): Buffer {
  const tokens = [...b.tokens.slice(0, b.cursor), ...add, ...b.tokens.slice(b.cursor)];
  return { tokens, cursor: b.cursor + add.length };
}

function remove(b: Buffer, from: number, to: number): Buffer {
  if (from < 0 || to > b.tokens.length || from >= to) return b;
  return { tokens: [...b.tokens.slice(0, from), ...b.tokens.slice(to)], cursor: from };
}

/** Up/Down inside the text: the same column on the line above or below. */
function vertical(b: Buffer, dir: -1 | 1): Buffer | undefined {
  const start = lineStart(b.tokens, b.cursor);
  const col = b.cursor - start;
  if (dir < 0) {
    if (start === 0) return undefined;
    const prev = lineStart(b.tokens, start - 1);
    return { ...b, cursor: Math.min(prev + col, start - 1) };
  }
  const end = lineEnd(b.tokens, b.cursor);
  if (end === b.tokens.length) return undefined;
  return { ...b, cursor: Math.min(end + 1 + col, lineEnd(b.tokens, end + 1)) };
}

export function Composer(props: ComposerProps): ReactNode {
  const { active, width, maxRows = 10 } = props;
  // State lives in refs: one stdin chunk can carry several key events, all
  // handled before React renders again, so each must see the last one's result.
  const buf = useRef<Buffer>(EMPTY);
  const histIndex = useRef<number | null>(null);
  const draft = useRef<Buffer>(EMPTY);
  const paste = useRef<string | null>(null);
  const pasteTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const lastRaw = useRef("");
  const [, setVersion] = useState(0);
  const cb = useRef(props);
  cb.current = props;

  // Ink reports both Backspace (DEL) and forward Delete (ESC [3~) as
  // `key.delete`; the raw sequence, seen just before useInput's handler runs,
  // tells them apart and gives a paste's exact bytes.
  const { internal_eventEmitter: events } = useStdin();
  useEffect(() => {
    const record = (raw: string) => void (lastRaw.current = raw);
    events?.on("input", record);
    return () => void events?.removeListener("input", record);
  }, [events]);
  useEffect(() => () => clearTimeout(pasteTimer.current), []);

  const set = (next: Buffer) => {
    const changed = textOf(next.tokens) !== textOf(buf.current.tokens);
    buf.current = next;
    setVersion((v) => v + 1);
    if (changed) cb.current.onChange?.(textOf(next.tokens));
  };
  const load = (text: string) => {
    const tokens = tokensOf(text, true);
    set({ tokens, cursor: tokens.length });
  };
  const endPaste = () => {
    clearTimeout(pasteTimer.current);
    const text = paste.current;
    paste.current = null;
    if (text) set(insert(buf.current, tokensOf(text, true)));
  };
  const armPaste = () => {
    clearTimeout(pasteTimer.current);
    pasteTimer.current = setTimeout(endPaste, PASTE_TIMEOUT_MS);
  };

  const onKey: KeyHandler = (input, key) => {
    const raw = lastRaw.current;
    const b = buf.current;
    if (input === "[200~") {
      paste.current = "";
      armPaste();
      return;
    }
    if (paste.current !== null) {
      if (input === "[201~") endPaste();
      else {
        paste.current += raw || (key.return ? "\n" : key.tab ? "\t" : input);
        armPaste();
      }
      return;
    }
    if (input === "[201~") return;
    if (key.return && (key.shift || key.meta)) return set(insert(b, ["\n"]));
    if (key.return) {
      const text = textOf(b.tokens);
      if (!text.trim()) return;
      histIndex.current = null;
      set(EMPTY);
      cb.current.onSubmit(text);
      return;
    }
    // Ctrl+J arrives as a bare LF (Enter is CR in raw mode).
    if (input === "\n") return set(insert(b, ["\n"]));
    if (key.upArrow || key.downArrow) {
      const dir = key.upArrow ? -1 : 1;
      const moved = vertical(b, dir);
      if (moved) return set(moved);
      return recall(dir);
    }
    if (key.leftArrow) return set({ ...b, cursor: Math.max(0, b.cursor - 1) });
    if (key.rightArrow) return set({ ...b, cursor: Math.min(b.tokens.length, b.cursor + 1) });
    if (key.home) return set({ ...b, cursor: lineStart(b.tokens, b.cursor) });
    if (key.end) return set({ ...b, cursor: lineEnd(b.tokens, b.cursor) });
    if (key.delete && /^\x1b\[3[~;:]/.test(raw)) return set(remove(b, b.cursor, b.cursor + 1));
    if (key.backspace || key.delete) return set(remove(b, b.cursor - 1, b.cursor));
    if (key.ctrl && input === "u") {
      histIndex.current = null;
      return set(EMPTY);
    }
    if (key.ctrl || key.meta || key.escape || key.tab || key.pageUp || key.pageDown || !input) return;
    // Text and Enter in one chunk (fast typing, tmux send-keys, a slow
    // terminal) is typing followed by Enter; a paste has its breaks inside.
    if (/^[^\r\n]+\r$/.test(input)) {
      const text = textOf(insert(b, tokensOf(input.slice(0, -1), false)).tokens);
      if (!text.trim()) return;
      histIndex.current = null;
      set(EMPTY);
      cb.current.onSubmit(text);
      return;
    }
    // A chunk with line breaks is a paste from a terminal without bracketed paste.
    const pasted = input.length > 1 && /[\r\n]/.test(input);
    const add = tokensOf(input, pasted);
    if (add.length) set(insert(b, add));
  };
  if (props.keys) props.keys.current = onKey;
  if (props.control) props.control.current = { setText: (text) => load(text) };
  useInput(onKey, { isActive: active && !props.keys });

  function recall(dir: -1 | 1): void {
    const history = cb.current.history;
    const at = histIndex.current;
    if (dir < 0) {
      const next = (at ?? history.length) - 1;
      if (next < 0) return;
      if (at === null) draft.current = buf.current;
      histIndex.current = next;
      return load(history[next]!);
    }
    if (at === null) return;
    if (at + 1 < history.length) {
      histIndex.current = at + 1;
      return load(history[at + 1]!);
    }
    histIndex.current = null;
    set(draft.current);
  }

  return <Box width={width}>{renderBuffer(buf.current, active, Math.max(1, width - 2), maxRows, props.placeholder)}</Box>;
}

function renderBuffer(b: Buffer, active: boolean, width: number, maxRows: number, placeholder?: string): ReactNode {
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
    const shown = typeof t !== "string" ? `[Pasted ${t.lines} lines]` : t === "\t" ? "    " : t;
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
