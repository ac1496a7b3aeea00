// Secrets never reach the model, or a file on disk, through a tool: a command
// that prints a key, or a file that holds one, comes back with the values of
// secret-looking variables (and the provider key) replaced. Commands never get
// those variables in the first place (core/jobs/shell-env.ts); this is the
// second line, for a copy that arrives some other way (a key in a file).
//
// Besides the exact value, its reversal and its base64 encodings are hidden:
// a copy piped through `rev` or `base64` is as good as the key itself.

import type { Env } from "./paths.js";

export const SECRET_MARK = "[REDACTED]";

/**
 * Names that look like they hold a secret. AUTHOR does not count, so
 * GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL stay readable. The command environment
 * drops variables by the same rule.
 */
export const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH(?!OR)/i;

/** Shorter values are too likely to be ordinary words or numbers. */
const MIN_SECRET_CHARS = 8;
/** A base64 form shorter than this is too likely to occur by chance. */
const MIN_ENCODED_CHARS = 8;

/** The values to hide: secret-named variables of `env` and the extra ones given. */
export function secretValues(env: Env, extra: readonly string[] = []): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_CHARS && SECRET_NAME.test(name)) values.add(value);
  }
  for (const v of extra) if (v.length >= MIN_SECRET_CHARS) values.add(v);
  // Longest first, so a secret that contains another is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * The base64 text that appears whenever `secret` is encoded inside a longer
 * stream: the stream's 3-byte groups may start at any of the secret's first
 * three bytes, and each start gives one run of characters that depends on the
 * secret alone (its whole groups, no padding).
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const cores: string[] = [];
  for (let start = 0; start < 3; start++) {
    const whole = Math.floor((bytes.length - start) / 3) * 3;
    const core = bytes.subarray(start, start + whole).toString("base64");
    if (core.length >= MIN_ENCODED_CHARS) cores.push(core);
  }
  return cores;
}

/** Every text that stands for one of `secrets`, longest first. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_CHARS) continue;
    forms.add(s);
    forms.add([...s].reverse().join(""));
    for (const core of base64Cores(s)) forms.add(core);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

export function createRedact(secrets: readonly string[]): (text: string) => string {
  const forms = secretForms(secrets);
  if (forms.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const f of forms) if (out.includes(f)) out = out.split(f).join(SECRET_MARK);
    return out;
  };
}

/**
 * Redaction of a byte stream that arrives in pieces (a command's output on
 * its way to disk). A secret split across two pieces is still caught: the end
 * of a piece that could be the start of a secret is held back until the next
 * piece shows whether it is one. Anything else passes at once, so a quiet
 * program's last line is not kept waiting.
 */
export interface StreamRedactor {
  /** The bytes safe to write now. */
  push(chunk: Buffer): Buffer;
  /** Whatever was held back (the stream has ended). */
  flush(): Buffer;
}

const MARK = Buffer.from(SECRET_MARK);

/** A pass-through when there is nothing to hide. */
export function createStreamRedactor(secrets: readonly string[]): StreamRedactor {
  const needles = secretForms(secrets).map((f) => Buffer.from(f, "utf8"));
  if (needles.length === 0) return { push: (chunk) => chunk, flush: () => Buffer.alloc(0) };
  let carry = Buffer.alloc(0);
  return {
    push(chunk) {
      const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const { out, matchedUpTo } = replaceAll(data, needles);
      const held = heldBack(data, matchedUpTo, needles);
      carry = Buffer.from(data.subarray(data.length - held));
      return held === 0 ? out : out.subarray(0, out.length - held);
    },
    flush() {
      const rest = carry;
      carry = Buffer.alloc(0);
      return rest;
    },
  };
}

/** `data` with every needle replaced; `matchedUpTo` is the end of the last match in `data`. */
function replaceAll(data: Buffer, needles: readonly Buffer[]): { out: Buffer; matchedUpTo: number } {
  const spans: Array<[number, number]> = [];
  for (const n of needles) {
    for (let i = data.indexOf(n); i !== -1; i = data.indexOf(n, i + n.length)) spans.push([i, i + n.length]);
  }
  if (spans.length === 0) return { out: data, matchedUpTo: 0 };
  spans.sort((a, b) => a[0] - b[0]);
  const parts: Buffer[] = [];
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue; // inside a span already replaced
    if (from >= at) parts.push(data.subarray(at, from), MARK);
    at = to; // an overlapping span only extends the replaced run
  }
  parts.push(data.subarray(at));
  return { out: Buffer.concat(parts), matchedUpTo: at };
}

/**
 * How many bytes at the end of `data` (after `from`) could be the start of a
 * needle: the longest suffix that is a proper prefix of one. The held bytes
 * were not part of any replacement, so the end of `out` holds them verbatim.
 */
function heldBack(data: Buffer, from: number, needles: readonly Buffer[]): number {
  let longest = 0;
  for (const n of needles) {
    const start = Math.max(from, data.length - n.length + 1);
    for (let i = start; i < data.length - longest; i++) {
      if (data[i] !== n[0]) continue;
      const len = data.length - i;
      if (data.subarray(i).equals(n.subarray(0, len))) {
        longest = len;
        break;
      }
    }
  }
  return longest;
}
