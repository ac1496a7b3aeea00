// The multi-line message input. Ink's own text input treats a pasted
// "abc\r" as typing, so editing, newlines and pastes are handled here; the
// edits themselves are pure functions (composer-buffer.ts), and so is the
// history search (history-search.ts).

import { Box, useInput, useStdin, type Key } from "ink";
import { useEffect, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import {
  bufferOf,
  completeMention,
  EMPTY,
  insert,
  lineEnd,
  lineStart,
  mentionAt,
  READLINE_EDITS,
  readlineEditFor,
  remove,
  textOf,
  tokensOf,
  vertical,
  type Buffer,
} from "./composer-buffer.js";
import { composerEcho, type ComposerEcho } from "./composer-echo.js";
import { renderBuffer, renderSearch } from "./composer-view.js";
import { eraseInSearch, searchOlder, startSearch, typeInSearch, type HistorySearch } from "./history-search.js";

/** A key as Ink reports it. */
export type KeyHandler = (input: string, key: Key) => void;

/** What the view can do to the composer from outside. */
export interface ComposerControl {
  /** Replaces the text (a completed command), cursor at its end. */
  setText(text: string): void;
  /** True while the composer takes every key itself (the history search, a pending Ctrl+X). */
  capturing(): boolean;
  /** True when the cursor is in an @-mention: Tab completes its path there. */
  inMention(): boolean;
}

export interface ComposerProps {
  active: boolean;
  /**
   * Set: the composer takes keys only through this handler, which the view
   * calls for each key routed to it (a key that switches to Insert mode and
   * the text right after it arrive before React renders again).
   */
  keys?: MutableRefObject<KeyHandler | undefined>;
  control?: MutableRefObject<ComposerControl | undefined>;
  width: number;
  /** Sent messages, oldest first: Up recalls from the end, Ctrl+R searches them. */
  history: string[];
  onSubmit(text: string): void;
  onChange?(text: string): void;
  /** The `@path` typed at the cursor (the text after `@`), or undefined when there is none. */
  onMention?(query: string | undefined): void;
  /** The files a mention can complete to, best first. */
  mentionChoices?(query: string): readonly string[];
  /** Ctrl+X Ctrl+E: the text edited in an external editor; undefined leaves the text as it was. */
  editExternally?(text: string): Promise<string | undefined>;
  placeholder?: string;
  /** An edit that changes only the cursor's row, to paint before the render (see composer-echo.ts). */
  echo?(edit: ComposerEcho): void;
  /** Most rows shown; the view follows the cursor beyond that. */
  maxRows?: number;
}

/** A bracketed paste whose end marker never comes is closed after this. */
const PASTE_TIMEOUT_MS = 500;

export function Composer(props: ComposerProps): ReactNode {
  const { active, width, maxRows = 10 } = props;
  // State lives in refs: one stdin chunk can carry several key events, all
  // handled before React renders again, so each must see the last one's result.
  const buf = useRef<Buffer>(EMPTY);
  const histIndex = useRef<number | null>(null);
  const draft = useRef<Buffer>(EMPTY);
  const search = useRef<{ state: HistorySearch; saved: Buffer } | null>(null);
  const ctrlX = useRef(false);
  const paste = useRef<string | null>(null);
  const pasteTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const lastRaw = useRef("");
  const lastMention = useRef<string | undefined>(undefined);
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

  /** `echo`: a plain edit of the row the cursor is on, which may be painted at once. */
  const set = (next: Buffer, echo = false) => {
    const prev = buf.current;
    const changed = textOf(next.tokens) !== textOf(prev.tokens);
    buf.current = next;
    if (echo) echoEdit(prev, next);
    setVersion((v) => v + 1);
    if (changed) cb.current.onChange?.(textOf(next.tokens));
    const mention = mentionAt(next)?.query;
    if (mention !== lastMention.current) {
      lastMention.current = mention;
      cb.current.onMention?.(mention);
    }
  };
  const echoEdit = (prev: Buffer, next: Buffer) => {
    const p = cb.current;
    // An @-mention lists files above the composer, and a placeholder is painted otherwise.
    if (!p.echo || !p.active || search.current || mentionAt(prev) || mentionAt(next)) return;
    if (p.placeholder && (prev.tokens.length === 0 || next.tokens.length === 0)) return;
    const edit = composerEcho(prev, next, Math.max(1, p.width - 2));
    if (edit) p.echo(edit);
  };
  const load = (text: string) => set(bufferOf(text));
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
  const send = (b: Buffer) => {
    const text = textOf(b.tokens);
    if (!text.trim()) return;
    histIndex.current = null;
    set(EMPTY);
    cb.current.onSubmit(text);
  };
  /** Tab or Enter on a mention with choices: the best one replaces what was typed; false when nothing to complete. */
  const complete = (b: Buffer, onEnter: boolean): boolean => {
    const at = mentionAt(b);
    const choice = at && cb.current.mentionChoices?.(at.query)[0];
    if (!at || !choice || (onEnter && choice === at.query)) return false;
    set(completeMention(b, choice));
    return true;
  };
  const openEditor = () => {
    const edit = cb.current.editExternally;
    if (!edit) return;
    void edit(textOf(buf.current.tokens)).then((text) => {
      if (text !== undefined) load(text);
    });
  };

  /** A key while Ctrl+R searches the history; false: the search ended and the key is handled as usual. */
  const searchKey = (input: string, key: Key): boolean => {
    const s = search.current!;
    const history = cb.current.history;
    const show = (state: HistorySearch) => {
      search.current = { ...s, state };
      set(state.index === undefined ? s.saved : bufferOf(history[state.index]!));
    };
    if ((key.ctrl && (input === "g" || input === "c")) || key.escape) {
      search.current = null;
      set(s.saved);
      return true;
    }
    if (key.ctrl && input === "r") return show(searchOlder(history, s.state)), true;
    if (key.backspace || key.delete) return show(eraseInSearch(history, s.state)), true;
    if (key.return) {
      search.current = null;
      setVersion((v) => v + 1);
      return true;
    }
    if (!key.ctrl && !key.meta && input && !/[\x00-\x1f]/.test(input)) return show(typeInSearch(history, s.state, input)), true;
    // Any other key keeps the entry found and does what it does.
    search.current = null;
    return false;
  };

  const onKey: KeyHandler = (input, key) => {
    const raw = lastRaw.current;
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
    if (search.current && searchKey(input, key)) return;
    if (ctrlX.current) {
      ctrlX.current = false;
      if (key.ctrl && input === "e") return openEditor();
    }
    const b = buf.current;
    if (key.ctrl && input === "x") return void (ctrlX.current = true);
    if (key.ctrl && input === "r") {
      search.current = { state: startSearch(cb.current.history), saved: b };
      const first = search.current.state.index;
      return set(first === undefined ? b : bufferOf(cb.current.history[first]!));
    }
    if (key.tab && complete(b, false)) return;
    if (key.return && (key.shift || key.meta)) return set(insert(b, ["\n"]));
    if (key.return) return complete(b, true) ? undefined : send(b);
    // Ctrl+J arrives as a bare LF (Enter is CR in raw mode).
    if (input === "\n") return set(insert(b, ["\n"]));
    if (key.upArrow || key.downArrow) {
      const dir = key.upArrow ? -1 : 1;
      const moved = vertical(b, dir);
      if (moved) return set(moved);
      return recall(dir);
    }
    if (key.leftArrow) return set({ ...b, cursor: Math.max(0, b.cursor - 1) }, true);
    if (key.rightArrow) return set({ ...b, cursor: Math.min(b.tokens.length, b.cursor + 1) }, true);
    if (key.home) return set({ ...b, cursor: lineStart(b.tokens, b.cursor) }, true);
    if (key.end) return set({ ...b, cursor: lineEnd(b.tokens, b.cursor) }, true);
    const edit = readlineEditFor(input, key, raw);
    if (edit) return set(READLINE_EDITS[edit](b), true);
    if (key.delete && /^\x1b\[3[~;:]/.test(raw)) return set(remove(b, b.cursor, b.cursor + 1), true);
    if (key.backspace || key.delete) return set(remove(b, b.cursor - 1, b.cursor), true);
    if (key.ctrl || key.meta || key.escape || key.tab || key.pageUp || key.pageDown || !input) return;
    // Text and Enter in one chunk (fast typing, tmux send-keys, a slow
    // terminal) is typing followed by Enter; a paste has its breaks inside.
    if (/^[^\r\n]+\r$/.test(input)) return send(insert(b, tokensOf(input.slice(0, -1), false)));
    // A chunk with line breaks is a paste from a terminal without bracketed paste.
    const pasted = input.length > 1 && /[\r\n]/.test(input);
    const add = tokensOf(input, pasted);
    if (add.length) set(insert(b, add), !pasted);
  };
  if (props.keys) props.keys.current = onKey;
  if (props.control) {
    props.control.current = { setText: (text) => load(text), capturing: () => search.current !== null || ctrlX.current, inMention: () => mentionAt(buf.current) !== undefined };
  }
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

  const inner = Math.max(1, width - 2);
  const s = search.current;
  return (
    <Box width={width}>
      {s ? renderSearch(s.state.query, s.state.index === undefined ? undefined : props.history[s.state.index], width) : renderBuffer(buf.current, active, inner, maxRows, props.placeholder)}
    </Box>
  );
}
