// The session trace: one JSON row per event, appended as it happens. Every
// row goes to the file in one synchronous write of the whole line, every
// byte checked in (core/append-log.ts): a failed write leaves no partial row,
// a process killed mid-row leaves one torn row that the next writer does not
// glue onto, and readTrace skips unreadable rows, says which, and reads on.
//
// Secrets never reach the file: each row is redacted before it is written.

import * as fs from "node:fs";
import * as path from "node:path";
import { openAppendLog, type AppendLog } from "./append-log.js";
import type { CoreEvent } from "./events.js";
import { secretForms } from "./redact.js";
import { jsonForTerminal } from "./text/escapes.js";
import { StateWriteError } from "./storage-error.js";

export const REDACTED = "[REDACTED]";
/** Shorter strings are not treated as secrets: redacting "true" or a 4-digit
 * number everywhere would wreck the trace and hide nothing of value. */
const MIN_SECRET_LENGTH = 8;

// JSON keys whose values are credentials wherever they appear: authorization,
// proxy-authorization, x-api-key, api-key, api_key, apikey, x-goog-api-key...
// Anchored at the end so `api_key_env` (a variable *name*) stays readable.
const SENSITIVE_KEY = /(?:^|[-_])(?:authorization|api[-_]?key)$/i;
const SENSITIVE_HINT = /authorization|api[-_]?key/i;
// A `"key": "value"` pair inside a string that holds JSON text, such as a raw
// provider request body or an SSE stream.
const EMBEDDED_PAIR = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;

export interface TraceOptions {
  /** Values to scrub from every row, e.g. API keys; see MIN_SECRET_LENGTH. */
  secrets: string[];
}

export interface TraceWriter {
  readonly path: string;
  /** Appends one redacted row. Throws if the trace is closed, StateWriteError if the write fails. */
  write(event: CoreEvent): void;
  /** Closes the file; later calls do nothing. */
  close(): void;
}

/** Serializes a value to one JSON line (no newline) with secrets redacted. */
export function createRedactor(secrets: readonly string[]): (value: unknown) => string {
  // Each secret also in its JSON-escaped forms, so it is caught inside JSON
  // text carried in a string (a request body) and in the serialized row.
  // Longest first, so a secret that contains another is removed whole.
  const forms = new Set<string>();
  // The secret itself and the copies that are as good as it (reversed, base64).
  for (const secret of secretForms(secrets)) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    let form = secret;
    for (let depth = 0; depth < 3; depth++) {
      forms.add(form);
      form = JSON.stringify(form).slice(1, -1);
    }
  }
  const needles = [...forms].sort((a, b) => b.length - a.length);
  const scrub = (text: string) => needles.reduce((t, n) => (t.includes(n) ? t.split(n).join(REDACTED) : t), text);

  const scrubString = (text: string): string => {
    let out = scrub(text);
    if (SENSITIVE_HINT.test(out)) {
      out = out.replace(EMBEDDED_PAIR, (pair, key: string, sep: string) =>
        SENSITIVE_KEY.test(key) ? `"${key}"${sep}"${REDACTED}"` : pair,
      );
    }
    return out;
  };

  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return scrubString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[scrubString(key)] = SENSITIVE_KEY.test(key) && inner != null ? REDACTED : walk(inner);
    }
    return out;
  };

  const serialize = (value: unknown): string => {
    const line = JSON.stringify(walk(value));
    // Safety net over the whole row. After the walk a secret can only show up
    // here by overlapping JSON escaping (a secret "nabc..." next to a "\n"), so
    // the replacement could break an escape; then keep a row that still parses
    // and says what happened rather than leak or write an unreadable row.
    const scrubbed = scrub(line);
    if (scrubbed === line) return line;
    try {
      JSON.parse(scrubbed);
      return scrubbed;
    } catch {
      const v = (value ?? {}) as Record<string, unknown>;
      return JSON.stringify({ seq: v.seq, ts: v.ts, sessionId: v.sessionId, agentId: v.agentId, type: v.type, redacted: "row withheld: a secret could not be redacted in place" });
    }
  };

  // Rows are printed too (--output jsonl): characters a terminal would act on
  // are \u-escaped, which changes nothing a parser reads.
  return (value) => jsonForTerminal(serialize(value));
}

/** Opens (appending to) a trace file, creating its directory if needed; StateWriteError when it cannot. */
export function openTrace(file: string, options: TraceOptions = { secrets: [] }): TraceWriter {
  const redact = createRedactor(options.secrets);
  let log: AppendLog | null;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // 0600: the trace holds the conversation and file contents.
    log = openAppendLog(file);
  } catch (err) {
    throw new StateWriteError(`could not open the trace ${file}`, err);
  }
  return {
    path: file,
    write(event) {
      if (log === null) throw new Error(`trace ${file} is closed; cannot record event ${event.type} #${event.seq}`);
      try {
        log.append(redact(event));
      } catch (err) {
        throw new StateWriteError(`could not write the trace ${file} (event ${event.type} #${event.seq})`, err);
      }
    },
    close() {
      if (log === null) return;
      const closing = log;
      log = null;
      closing.close();
    },
  };
}

interface SkippedRow {
  /** 1-based line number in the file. */
  line: number;
  text: string;
  reason: string;
}

export interface TraceContents {
  events: CoreEvent[];
  /** Rows that did not parse: normally only a last row torn by a kill. */
  skipped: SkippedRow[];
}

/** Reads every complete row; unreadable rows are skipped and listed. */
export function readTrace(file: string): TraceContents {
  const text = fs.readFileSync(file, "utf8");
  const events: CoreEvent[] = [];
  const skipped: SkippedRow[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    const torn = index === lines.length - 1; // no newline after it
    try {
      const row: unknown = JSON.parse(raw);
      if (row === null || typeof row !== "object" || typeof (row as { type?: unknown }).type !== "string") {
        skipped.push({ line: index + 1, text: raw, reason: "not an event (no string `type`)" });
        return;
      }
      events.push(row as CoreEvent);
    } catch (err) {
      const why = torn ? "torn last row (the writer stopped mid-row)" : `invalid JSON: ${(err as Error).message}`;
      skipped.push({ line: index + 1, text: raw, reason: why });
    }
  });
  return { events, skipped };
}

/**
 * The `seq` of the last complete row, read from the file's tail: a resumed
 * session numbers its events on from there, also past events the process
 * wrote after its last saved step.
 */
export function lastTraceSeq(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return 0;
  }
  try {
    const size = fs.fstatSync(fd).size;
    // Rows can be long (raw provider bodies): widen the window until a row fits.
    for (let window = 64 * 1024; ; window *= 4) {
      const start = Math.max(0, size - window);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      const lines = buf.toString("utf8").split("\n");
      // The first line may be cut by the window; the last may be torn.
      for (let i = lines.length - 1; i >= (start === 0 ? 0 : 1); i--) {
        try {
          const seq = (JSON.parse(lines[i]!) as { seq?: unknown }).seq;
          if (typeof seq === "number") return seq;
        } catch {
          // torn or empty: look further back
        }
      }
      if (start === 0) return 0;
    }
  } finally {
    fs.closeSync(fd);
  }
}
