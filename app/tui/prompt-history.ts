// The messages a person sent, kept across sessions per project in
// `$XDG_STATE_HOME/yuj/history` (default `~/.local/state/yuj/history`), so
// Up and Ctrl+R find yesterday's prompts. One JSON line per message, with its
// project: appending one line is one write (lines of two yuj windows never
// interleave), and a torn or foreign line is skipped when read. The file is
// bounded: past its size limit it is rewritten, atomically, with its newest
// entries. A message that looks like it holds a secret is not kept.

import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { atomicWriteSync } from "../../core/atomic-write.js";
import { stateDir, type Env } from "../../core/paths.js";

const HISTORY_FILE_NAME = "history";
/** Past this size the file is cut down to its newest entries. */
const MAX_FILE_BYTES = 512 * 1024;
/** Entries kept when the file is cut, and recalled per project. */
const KEEP_ENTRIES = 1000;
/** A message longer than this is not worth recalling (a whole pasted file). */
const MAX_ENTRY_CHARS = 20_000;

/** Text shaped like a credential: provider keys, tokens, private keys, `password=…`. */
const SECRET_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:api[_-]?key|secret|token|passw(?:or)?d)\s*[:=]\s*\S{6,}/i,
];

export interface PromptHistory {
  /** This project's messages, oldest first. */
  readonly entries: readonly string[];
  /** Keeps a sent message (unless it looks secret, or repeats the last one). */
  add(text: string): void;
}

interface Line {
  project: string;
  text: string;
}

function historyPath(env: Env): string {
  return join(stateDir(env), HISTORY_FILE_NAME);
}

/** True when a message looks like it carries a secret: such a message is never written down. */
function looksSecret(text: string, secrets: readonly string[] = []): boolean {
  return SECRET_SHAPES.some((re) => re.test(text)) || secrets.some((s) => s.length >= 8 && text.includes(s));
}

function readLines(file: string): Line[] {
  if (!existsSync(file)) return [];
  const lines: Line[] = [];
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    if (!raw) continue;
    try {
      const v = JSON.parse(raw) as Partial<Line>;
      if (typeof v.project === "string" && typeof v.text === "string") lines.push({ project: v.project, text: v.text });
    } catch {
      // A line torn by a crash mid-write: the others still count.
    }
  }
  return lines;
}

/**
 * The newest lines, at most KEEP_ENTRIES and half the size limit: room for
 * many more appends before the next cut.
 */
function newestLines(lines: Line[]): string {
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < KEEP_ENTRIES; i--) {
    const row = JSON.stringify(lines[i]) + "\n";
    bytes += Buffer.byteLength(row);
    if (bytes > MAX_FILE_BYTES / 2) break;
    kept.push(row);
  }
  return kept.reverse().join("");
}

/**
 * The history of `project`. Reading or writing it never stops the UI: a
 * file that cannot be read starts an empty history, one that cannot be
 * written keeps this session's messages in memory (`onProblem` hears why).
 */
export function openPromptHistory(opts: { env: Env; project: string; secrets?: readonly string[]; onProblem?(message: string): void }): PromptHistory {
  const file = historyPath(opts.env);
  let entries: string[] = [];
  try {
    entries = readLines(file).filter((l) => l.project === opts.project).map((l) => l.text).slice(-KEEP_ENTRIES);
  } catch (err) {
    opts.onProblem?.(`could not read the message history ${file}: ${(err as Error).message}`);
  }
  const trim = () => {
    if (statSync(file).size <= MAX_FILE_BYTES) return;
    atomicWriteSync(file, newestLines(readLines(file)));
  };
  return {
    get entries() {
      return entries;
    },
    add(text) {
      if (!text.trim() || text.length > MAX_ENTRY_CHARS || looksSecret(text, opts.secrets)) return;
      if (entries[entries.length - 1] === text) return;
      entries = [...entries, text].slice(-KEEP_ENTRIES);
      try {
        mkdirSync(dirname(file), { recursive: true });
        appendFileSync(file, JSON.stringify({ project: opts.project, text } satisfies Line) + "\n", { mode: 0o600 });
        trim();
      } catch (err) {
        opts.onProblem?.(`could not save the message to ${file}: ${(err as Error).message}`);
      }
    },
  };
}
