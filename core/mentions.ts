// `@path` in a user's message: the file goes to the model with the message.
// `@src/a.ts` attaches the whole file, `@src/a.ts:12` one line, and
// `@src/a.ts:10-20` a range. The attachment is resolved here, in the core,
// so a message typed in the TUI and a headless `yuj code "look at @a.ts"`
// attach the same way. Each file comes after the message in its own
// delimited block, bounded by the output limit (the whole text is saved and
// named, as for a tool's output) and with secrets redacted; a mention that
// names no readable text file is said so in a notice and attaches nothing.

import { createHash } from "node:crypto";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { boundOutput } from "./output-bound.js";
import { memoryKey } from "./session-memory.js";

/**
 * The files the user's @-mentions showed the model in this session: real
 * path → sha256 of the bytes attached. A tool that warns when a file changed
 * since the model last saw it counts an attachment as a sighting, as the
 * reference records a mentioned file's snapshot.
 */
export const ATTACHED_FILES = memoryKey("files attached by @-mention", () => new Map<string, string>());

export interface Mention {
  /** The path as typed. */
  path: string;
  /** 1-based, inclusive line range; absent: the whole file. */
  from?: number;
  to?: number;
}

/** What was attached, for the user's card. */
export interface Attachment {
  path: string;
  from?: number;
  to?: number;
  /** Lines attached. */
  lines: number;
  /** Set when the text was cut at the output limit; the whole of it is saved there. */
  savedTo?: string;
}

export interface ResolvedMessage {
  /** The message as the model gets it: the user's text, then each attached file. */
  modelText: string;
  attachments: Attachment[];
  /** Mentions that attached nothing, and why. */
  problems: string[];
}

export interface MentionOptions {
  cwd: string;
  maxChars: number;
  headRatio: number;
  /** Where a file cut at the limit is saved whole. */
  saveDir: string;
  redact?: (text: string) => string;
  /** Told of each file attached (its real path and the sha256 of its bytes), a range included. */
  attached?: (realPath: string, sha256: string) => void;
}

// An `@` at the start or after a blank, a path without blanks, an optional
// `:N` or `:A-B`. Trailing punctuation (`look at @a.ts.`) is the sentence's.
const MENTION = /(?<=^|\s)@([^\s@:]+?)(?::(\d+)(?:-(\d+))?)?(?=[.,;!?)\]]*(?:\s|$))/g;

export function findMentions(text: string): Mention[] {
  const seen = new Set<string>();
  const out: Mention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const path = m[1]!;
    const from = m[2] === undefined ? undefined : Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    const key = `${path}:${from ?? ""}-${to ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, ...(from === undefined ? {} : { from, to: to! }) });
  }
  return out;
}

const rangeOf = (m: { from?: number; to?: number }) => (m.from === undefined ? "" : m.from === m.to ? `:${m.from}` : `:${m.from}-${m.to}`);

/** The text a mention attaches, or the reason it attaches nothing. */
function readMention(m: Mention, cwd: string): { text: string; lines: number; real: string; sha256: string } | { problem: string } {
  const file = isAbsolute(m.path) ? m.path : resolve(cwd, m.path);
  const named = `@${m.path}${rangeOf(m)}`;
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return { problem: `${named} is a directory: name a file in it (@${m.path}/…)` };
    if (!st.isFile()) return { problem: `${named} is not a regular file` };
    size = st.size;
  } catch {
    return { problem: `${named}: no such file (paths are relative to ${cwd}); nothing was attached` };
  }
  const bytes = readFileSync(file);
  if (bytes.subarray(0, Math.min(size, 8192)).includes(0)) return { problem: `${named} is a binary file: not attached` };
  const seen = { real: realpathSync(file), sha256: createHash("sha256").update(bytes).digest("hex") };
  const all = bytes.toString("utf8").replace(/\r\n/g, "\n");
  const lines = all.endsWith("\n") ? all.slice(0, -1).split("\n") : all.split("\n");
  if (m.from === undefined) return { text: all, lines: all === "" ? 0 : lines.length, ...seen };
  if (m.from < 1 || m.to! < m.from) return { problem: `${named}: a range is :N or :A-B with 1 ≤ A ≤ B` };
  if (m.from > lines.length) return { problem: `${named}: the file has ${lines.length} lines` };
  const picked = lines.slice(m.from - 1, Math.min(m.to!, lines.length));
  return { text: picked.join("\n") + "\n", lines: picked.length, ...seen };
}

/** The message with its mentioned files attached. */
export function resolveMentions(text: string, opts: MentionOptions): ResolvedMessage {
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  for (const m of findMentions(text)) {
    const read = readMention(m, opts.cwd);
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    opts.attached?.(read.real, read.sha256);
    const shownPath = relative(opts.cwd, isAbsolute(m.path) ? m.path : join(opts.cwd, m.path)) || m.path;
    const redacted = opts.redact ? opts.redact(read.text) : read.text;
    const bound = boundOutput(redacted, { maxChars: opts.maxChars, headRatio: opts.headRatio, saveDir: opts.saveDir, name: `attached-${shownPath}${rangeOf(m)}` });
    const range = m.from === undefined ? "" : ` lines="${m.from}-${Math.min(m.to!, m.from + read.lines - 1)}"`;
    blocks.push(`<attached_file path="${shownPath}"${range}>\n${bound.text.replace(/\n?$/, "\n")}</attached_file>`);
    const to = m.from === undefined ? undefined : m.from + read.lines - 1;
    attachments.push({ path: shownPath, ...(m.from === undefined ? {} : { from: m.from, to: to! }), lines: read.lines, ...(bound.fullOutputPath ? { savedTo: bound.fullOutputPath } : {}) });
  }
  const modelText = blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text;
  return { modelText, attachments, problems };
}

/** An attachment as the user's card names it: `src/a.ts:3-5 (3 lines)`. */
export function describeAttachment(a: Attachment): string {
  const range = a.from === undefined ? "" : a.from === a.to ? `:${a.from}` : `:${a.from}-${a.to}`;
  return `${a.path}${range} (${a.lines} line${a.lines === 1 ? "" : "s"}${a.savedTo ? `, cut at the output limit; whole file saved to ${a.savedTo}` : ""})`;
}
