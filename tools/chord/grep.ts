// Chord `grep` (digest §2.2): regex content search over one or more roots with
// `includes` glob filters and optional context. Matches print as
// `path:line:text`, context lines as `| path-line-text`; nearby matches share
// one merged window. Caps: 120 matches and 12 KiB of output; context counts
// against the bytes only (room stays reserved for the matches still to come),
// and once it no longer fits later matches are listed bare. An invalid regex is searched as literal text, with a note. ripgrep
// (`findRipgrep`) does the walk, so ignore files, hidden and binary files are
// treated as rg treats them.

import * as path from "node:path";
import { z } from "zod";
import { fail, ok, type ToolContext, type ToolHandler } from "../../core/tool-types.js";
import { findRipgrep } from "../grep.js";
import { FirstInOrder, type FileMatches } from "../lib/first-in-order.js";
import { displayPath, resolveInCwd } from "../lib/paths.js";
import { streamRg } from "../lib/rg-stream.js";
import { plain } from "./observations.js";

export const chordGrepSchema = z.object({
  pattern: z.string(),
  paths: z.union([z.string(), z.array(z.string())]).optional(),
  includes: z.union([z.string(), z.array(z.string())]).optional(),
  context_lines: z.number().int().optional(),
});

export const GREP_MAX_MATCHES = 120;
export const GREP_MAX_BYTES = 12 * 1024;
export const GREP_MAX_CONTEXT = 20;
export const CONTEXT_LINE_MAX_BYTES = 256;
export const LITERAL_NOTE = "Note: pattern was invalid regex; searched as literal text.";
const NO_MATCH_HINT =
  " If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";
const capFooter = (n: number) =>
  `\n\n(showing first ${n} matches within 12 KiB; narrow paths/includes/pattern for more precise results)`;
export const CONTEXT_OMITTED_FOOTER =
  "\n\n(context lines omitted for later matches: the 12 KiB output budget ran out; lower context_lines or narrow the search to see them)";

interface Line {
  file: string;
  n: number;
  text: string;
  match: boolean;
}

/** One `match` or `context` event line of `rg --json`, unparsed until it is shown. */
interface RgEvent {
  json: Buffer;
  match: boolean;
}

type RgRun = { ok: true; files: FileMatches<Buffer, RgEvent>[]; matches: number; code: number; stderr: string } | { ok: false; error: string };

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : typeof v === "string" ? [v] : v);

/** Control characters other than tab are dropped; invalid UTF-8 is already U+FFFD. */
const clean = (s: string): string => s.replace(/\r?\n$/, "").replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "");

function rgText(field: { text?: string; bytes?: string } | undefined): string {
  if (!field) return "";
  if (field.text !== undefined) return field.text;
  return new TextDecoder("utf-8").decode(Buffer.from(field.bytes ?? "", "base64"));
}

type RgPath = { text?: string; bytes?: string } | undefined;

const pathBytes = (p: RgPath): Buffer =>
  p?.text !== undefined ? Buffer.from(p.text, "utf8") : Buffer.from(p?.bytes ?? "", "base64");

/**
 * The order `rg --sort path` walks in: each directory's entries by name,
 * bytewise, depth first — the same as comparing byte by byte with `/` below
 * every other byte (a name that ends first sorts first).
 */
export function comparePaths(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x === 0x2f) return -1;
    if (y === 0x2f) return 1;
    return x - y;
  }
  return a.length - b.length;
}

// rg writes `"type"` first; reading it off the bytes spares decoding and
// parsing every event (tens of thousands, megabytes, on a large tree) only to
// skip most of them. rg's JSON is UTF-8 throughout and a newline byte only
// ever ends a line, so a line is the bytes between newlines.
const TYPE_PREFIXES = ["match", "context", "begin", "end"].map((t) => ({ t, bytes: Buffer.from(`{"type":"${t}"`) }));

function hasPrefix(data: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[start + i] !== prefix[i]) return false;
  return true;
}

function eventType(data: Buffer, start: number, end: number): string | undefined {
  for (const { t, bytes } of TYPE_PREFIXES) if (hasPrefix(data, start, end, bytes)) return t;
  try {
    return (JSON.parse(data.toString("utf8", start, end)) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

/** The path of a begin (or any) event line. */
function eventPath(data: Buffer, start: number, end: number): Buffer | undefined {
  try {
    return pathBytes((JSON.parse(data.toString("utf8", start, end)) as { data?: { path?: RgPath } }).data?.path);
  } catch {
    return undefined;
  }
}

/**
 * Runs rg without `--sort path`, which would make it search on one thread,
 * and orders its output here instead: rg prints each file's events together
 * (begin, matches and context, end), so whole files are ordered as
 * `--sort path` would have walked them. Only what can be among the first
 * `wanted` matches in that order is kept (FirstInOrder); the rest is counted.
 */
async function runRg(
  ctx: ToolContext,
  rg: string,
  argv: string[],
  cwd: string,
  wanted: number,
  hidden: (key: Buffer) => boolean,
): Promise<RgRun> {
  const order = new FirstInOrder<Buffer, RgEvent>({ wanted, compareKeys: comparePaths, counts: (e) => e.match });
  // `keep`: the file can still hold shown matches; `hidden`: a path rule
  // keeps it from reading, so it is left out and its matches do not count.
  // Both are decided once, at its begin.
  let cur: { key: Buffer; events: RgEvent[]; matches: number; keep: boolean; hidden: boolean } | undefined;
  const endFile = () => {
    if (cur && !cur.hidden) order.add(cur.key, cur.events, cur.matches);
    cur = undefined;
  };
  const open = (key: Buffer) => {
    const isHidden = hidden(key);
    cur = { key, events: [], matches: 0, keep: !isHidden && order.wants(key), hidden: isHidden };
  };
  const onLines = (data: Buffer) => {
    for (let start = 0; start < data.length; ) {
      let end = data.indexOf(0x0a, start);
      if (end < 0) end = data.length;
      const lineStart = start;
      start = end + 1;
      if (end === lineStart) continue;
      const type = eventType(data, lineStart, end);
      if (type === "begin" || type === "end") {
        endFile();
        const key = type === "begin" ? eventPath(data, lineStart, end) : undefined;
        if (key) open(key);
        continue;
      }
      if (type !== "match" && type !== "context") continue;
      if (!cur) {
        // Not expected from rg: an event outside begin/end gets a file of its own.
        const key = eventPath(data, lineStart, end);
        if (!key) continue;
        open(key);
      }
      if (!cur) continue;
      const match = type === "match";
      // Past the file's first `wanted` matches nothing more of it can be shown.
      if (cur.keep && cur.matches < wanted) cur.events.push({ json: Buffer.from(data.subarray(lineStart, end)), match });
      if (match) cur.matches++;
    }
  };
  const res = await streamRg(ctx, { rg, argv, cwd, timeoutMs: ctx.config.tools.grep_timeout * 1000, onLines });
  endFile();
  if (res.kind === "spawn_error") return { ok: false, error: res.message };
  if (res.kind === "cancelled") return { ok: false, error: "cancelled" };
  if (res.kind === "timeout" || res.code === null) return { ok: false, error: `timed out after ${ctx.config.tools.grep_timeout}s` };
  return { ok: true, files: order.result(), matches: order.total, code: res.code, stderr: res.stderr };
}

/** The lines of one file's events. */
function parseEvents(file: FileMatches<Buffer, RgEvent>): Line[] {
  const lines: Line[] = [];
  for (const event of file.entries) {
    let ev: { type: string; data: Record<string, unknown> };
    try {
      ev = JSON.parse(event.json.toString("utf8")) as typeof ev;
    } catch {
      continue;
    }
    if (ev.type !== "match" && ev.type !== "context") continue;
    const d = ev.data as { path?: RgPath; lines?: { text?: string; bytes?: string }; line_number?: number };
    lines.push({
      file: rgText(d.path),
      n: d.line_number ?? 0,
      text: clean(rgText(d.lines)),
      match: ev.type === "match",
    });
  }
  return lines;
}

/** Quoted (JSON string) when a reader could not tell where the path ends. */
export function quotePath(p: string): string {
  return /[\s:"\\|]|[\u0000-\u001f]|-\d+-/.test(p) || p.startsWith("|") ? JSON.stringify(p) : p;
}

function shorten(text: string): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= CONTEXT_LINE_MAX_BYTES) return text;
  let end = CONTEXT_LINE_MAX_BYTES;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.subarray(0, end).toString("utf8")}...`;
}

export const chordGrepTool: ToolHandler<typeof chordGrepSchema> = {
  id: "chord_grep",
  schema: chordGrepSchema,
  readOnly: true,
  async run(args, ctx) {
    if (args.pattern === "") return fail("pattern is required");
    const notes: string[] = [];
    let context = args.context_lines ?? 0;
    if (context < 0) return fail(`context_lines must be between 0 and ${GREP_MAX_CONTEXT}, got ${context}`);
    if (context > GREP_MAX_CONTEXT) {
      notes.push(`Note: context_lines ${context} clamped to ${GREP_MAX_CONTEXT}.`);
      context = GREP_MAX_CONTEXT;
    }
    const rg = await findRipgrep(ctx);
    if (!rg) return fail("grep unavailable: no ripgrep binary found");

    const { fs } = ctx.services;
    const roots = asList(args.paths).filter((p) => p.trim() !== "");
    if (roots.length === 0) roots.push(".");
    const includes = asList(args.includes).filter((g) => g.trim() !== "");

    const resolved: Array<{ shown: string; abs: string; dir: boolean; cwdReal: string }> = [];
    const failures: string[] = [];
    for (const shown of roots) {
      const where = await resolveInCwd(fs, ctx.cwd, shown);
      if (!where.ok) {
        failures.push(`${shown} (${plain(where.error)})`);
        continue;
      }
      const st = await fs.stat(where.abs).catch(() => undefined);
      if (!st) {
        failures.push(`${shown} (not found)`);
        continue;
      }
      resolved.push({ shown, abs: where.abs, dir: st.isDirectory(), cwdReal: where.cwdReal });
    }
    if (resolved.length === 0) {
      return fail(
        `all search paths failed: ${failures.join(", ")}. The path may be stale or mistyped; ` +
          "check it with glob or search from the working directory.",
      );
    }
    for (const f of failures) notes.push(`grep: skipped path: ${f}`);

    const search = async (literal: boolean): Promise<{ ok: true; lines: Line[] } | { ok: false; error: string; regex: boolean }> => {
      const all: Line[] = [];
      // Output stops at the match cap, so only what can come before the
      // cap'th + 1 match is kept and parsed: on a large tree most events
      // are only counted.
      let matches = 0;
      for (const root of resolved) {
        const argv = ["--no-config", "--json"];
        if (context > 0) argv.push("-C", String(context));
        if (literal) argv.push("--fixed-strings");
        for (const g of includes) argv.push("--glob", g);
        // Run inside each root so `includes` are relative to it.
        const cwd = root.dir ? root.abs : path.dirname(root.abs);
        argv.push("-e", args.pattern, "--", root.dir ? "." : path.basename(root.abs));
        const hidden = (key: Buffer) => ctx.hiddenByRules?.(displayPath(root.cwdReal, path.resolve(cwd, key.toString("utf8")))) === true;
        const res = await runRg(ctx, rg, argv, cwd, Math.max(0, GREP_MAX_MATCHES + 1 - matches), hidden);
        if (!res.ok) return { ok: false, error: `grep ${res.error}`, regex: false };
        if (res.code >= 2 && res.matches === 0) {
          const regex = /regex parse error|error parsing regex|unclosed|repetition/i.test(res.stderr);
          const first = res.stderr.split("\n").find((l) => l.trim()) ?? "unknown error";
          return { ok: false, error: `grep failed: ${first.replace(/^rg: /, "")}`, regex };
        }
        matches += res.matches;
        for (const file of res.files) {
          for (const l of parseEvents(file)) {
            const abs = path.resolve(cwd, l.file);
            all.push({ ...l, file: displayPath(root.cwdReal, abs) });
          }
        }
      }
      return { ok: true, lines: all };
    };

    let literal = false;
    let res = await search(false);
    if (!res.ok && res.regex) {
      literal = true;
      res = await search(true);
    }
    if (!res.ok) return fail(res.error);
    if (literal) notes.unshift(LITERAL_NOTE);

    const lines = res.lines;
    if (!lines.some((l) => l.match)) {
      const noteText = notes.filter((n) => n !== LITERAL_NOTE);
      const body =
        "No matches found." + (literal ? " (pattern was invalid regex; searched as literal text)" : "") + NO_MATCH_HINT;
      return ok([...noteText, body].join("\n"));
    }

    // Room kept for the match lines still to come (up to the match cap), so
    // context never crowds them out; at most half the budget is held back.
    const matchCost = lines.map((l) => (l.match ? Buffer.byteLength(`${quotePath(l.file)}:${l.n}:${l.text}`, "utf8") + 1 : 0));
    const reserveAfter: number[] = new Array<number>(lines.length + 1).fill(0);
    let seenMatches = lines.filter((l) => l.match).length;
    for (let i = lines.length - 1; i >= 0; i--) {
      const counted = lines[i]!.match && seenMatches-- <= GREP_MAX_MATCHES;
      reserveAfter[i] = reserveAfter[i + 1]! + (counted ? matchCost[i]! : 0);
    }
    const reserve = (i: number) => Math.min(reserveAfter[i + 1]!, GREP_MAX_BYTES / 2);

    const out: string[] = [];
    let bytes = 0;
    let shown = 0;
    let capped = false;
    let withContext = context > 0;
    let contextOmitted = false;
    for (const [i, l] of lines.entries()) {
      const file = quotePath(l.file);
      if (l.match) {
        if (shown === GREP_MAX_MATCHES) {
          capped = true;
          break;
        }
        const text = `${file}:${l.n}:${l.text}`;
        const cost = Buffer.byteLength(text, "utf8") + 1;
        if (bytes + cost > GREP_MAX_BYTES) {
          capped = true;
          break;
        }
        out.push(text);
        bytes += cost;
        shown++;
      } else {
        if (!withContext) {
          contextOmitted = true;
          continue;
        }
        const text = `| ${file}-${l.n}-${shorten(l.text)}`;
        const cost = Buffer.byteLength(text, "utf8") + 1;
        if (bytes + cost + reserve(i) > GREP_MAX_BYTES) {
          withContext = false;
          contextOmitted = true;
          continue;
        }
        out.push(text);
        bytes += cost;
      }
    }
    const head = notes.length ? `${notes.join("\n")}\n` : "";
    let text = head + out.join("\n");
    if (contextOmitted) text += CONTEXT_OMITTED_FOOTER;
    if (capped) text += capFooter(shown);
    return ok(text);
  },
};
