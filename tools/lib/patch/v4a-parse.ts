// Parser for the Codex V4A patch envelope:
//
//   *** Begin Patch
//   *** Add File: path        (body: every line starts with "+")
//   *** Delete File: path
//   *** Update File: path
//   *** Move to: new/path      (directly after Update)
//   @@ scope header            (zero or more, nested; each searched after the previous)
//    context / -removed / +added   (a blank line inside a hunk is an empty context line)
//   *** End of File            (pins the hunk before it to the end of the file)
//   *** End Patch
//
// Written as models write it: the markers and operation lines may carry
// spaces around them; blank lines between operations, before a `@@` and
// after `*** End of File` only separate; a unified-diff range in a `@@`
// header (`@@ -3,4 +3,5 @@ def f():`) is dropped, keeping the text after it;
// a `@@` with one context line and no change, followed by another `@@`, is
// the next hunk's anchor. The parser only reads the text; locating hunks and
// touching files is the caller's business. Every error names the 1-based
// patch line it is about.

interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
  /** The line has no newline after it (a unified diff's "\ No newline at end of file"). */
  noNewline?: boolean;
}

export interface Hunk {
  /** `@@ text` headers before the hunk, outermost first. */
  scopes: string[];
  lines: HunkLine[];
  /** `*** End of File` followed the hunk: it must match at the file's tail. */
  eof: boolean;
  /** Patch line where the hunk starts (its first header or body line). */
  line: number;
  /** 0-based old-file line where a pure insertion goes (unified diff headers only). */
  hint?: number;
}

export type PatchOp =
  | { kind: "add"; path: string; lines: string[]; line: number; noFinalNewline?: boolean }
  | { kind: "delete"; path: string; line: number; removes?: string[] }
  | { kind: "update"; path: string; moveTo?: string; hunks: Hunk[]; line: number };

type ParseErrorKind = "parse" | "unknown_op_kind";

export type ParseResult = { ok: true; ops: PatchOp[] } | { ok: false; kind: ParseErrorKind; line: number; message: string };

export interface ParseOptions {
  /**
   * Chord's reading: a patch missing its Begin or End marker is still read
   * when it starts with an operation, and a blank line between two `+`
   * lines of an added file is an error rather than an empty line.
   */
  chord?: boolean;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const EOF_MARK = "*** End of File";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const OP_PREFIXES = [ADD, DELETE, UPDATE];
const UNIFIED_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@\s*/;

/** Old lines of a hunk (context and removed), in order. */
export const oldLines = (h: Hunk): string[] => h.lines.filter((l) => l.kind !== "+").map((l) => l.text);

class Fail {
  constructor(
    readonly kind: ParseErrorKind,
    readonly line: number,
    readonly message: string,
  ) {}
}

const isBlank = (l: string): boolean => l.trim() === "";
const isOpHeader = (l: string): boolean => OP_PREFIXES.some((p) => l.trim().startsWith(p));
const isEofMark = (l: string): boolean => l.trimEnd() === EOF_MARK;

export function parseV4A(patch: string, options: ParseOptions = {}): ParseResult {
  try {
    return { ok: true, ops: parseOrThrow(patch, options) };
  } catch (err) {
    if (err instanceof Fail) return { ok: false, kind: err.kind, line: err.line, message: `line ${err.line}: ${err.message}` };
    throw err;
  }
}

/** The index of the first operation line and the index just past the last. */
function envelope(lines: string[], options: ParseOptions): { first: number; last: number } {
  let i = 0;
  while (i < lines.length && isBlank(lines[i]!)) i++;
  if (i >= lines.length) throw new Fail("parse", 1, `the patch is empty; it must start with '${BEGIN}'`);
  let first: number;
  if (lines[i]!.trim() === BEGIN) first = i + 1;
  else if (options.chord && isOpHeader(lines[i]!)) first = i;
  else throw new Fail("parse", i + 1, `expected '${BEGIN}', found '${clip(lines[i]!)}'`);
  let last = lines.length - 1;
  while (last >= first && isBlank(lines[last]!)) last--;
  if (last >= first && lines[last]!.trim() === END) return { first, last };
  if (options.chord) return { first, last: last + 1 };
  throw new Fail("parse", last + 1, `the patch must end with '${END}'`);
}

function parseOrThrow(patch: string, options: ParseOptions): PatchOp[] {
  const lines = patch.split(/\r?\n/);
  const { first, last } = envelope(lines, options);
  const ops: PatchOp[] = [];
  let i = first;
  while (i < last) {
    const raw = lines[i]!;
    const line = i + 1;
    const header = raw.trim();
    if (header === "") {
      i++;
      continue;
    }
    if (header.startsWith(ADD)) {
      const { body, next } = addBody(lines, i + 1, last, options);
      ops.push({ kind: "add", path: opPath(header, ADD, line), lines: body, line });
      i = next;
      continue;
    }
    if (header.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: opPath(header, DELETE, line), line });
      i++;
      continue;
    }
    if (header.startsWith(UPDATE)) {
      const path = opPath(header, UPDATE, line);
      i++;
      while (i < last && isBlank(lines[i]!)) i++;
      let moveTo: string | undefined;
      if (i < last && lines[i]!.trim().startsWith(MOVE)) {
        moveTo = opPath(lines[i]!.trim(), MOVE, i + 1);
        i++;
      }
      const { hunks, next } = parseHunks(lines, i, last);
      if (hunks.length === 0 && moveTo === undefined) throw new Fail("parse", line, `'${UPDATE} ${path}' has no hunks`);
      ops.push(moveTo === undefined ? { kind: "update", path, hunks, line } : { kind: "update", path, moveTo, hunks, line });
      i = next;
      continue;
    }
    if (header.startsWith(MOVE)) throw new Fail("parse", line, `'${MOVE}' must directly follow an '${UPDATE}' line`);
    const unknown = /^\*\*\* ([A-Za-z]+(?: [A-Za-z]+)*)(?::|$)/.exec(header);
    if (unknown && header !== EOF_MARK && header !== BEGIN && header !== END) {
      throw new Fail("unknown_op_kind", line, `unknown operation '*** ${unknown[1]}'; use Add File, Delete File or Update File`);
    }
    throw new Fail("parse", line, `expected an '*** Add File:', '*** Delete File:' or '*** Update File:' line, found '${clip(raw)}'`);
  }
  if (ops.length === 0) throw new Fail("parse", last + 1, "the patch contains no operations");
  return ops;
}

/** An added file's lines; blank lines after the last `+` line only separate. */
function addBody(lines: string[], start: number, last: number, options: ParseOptions): { body: string[]; next: number } {
  const body: string[] = [];
  let blanks = 0;
  let i = start;
  for (; i < last && !isOpHeader(lines[i]!); i++) {
    const l = lines[i]!;
    if (l === "") {
      blanks++;
      continue;
    }
    if (!l.startsWith("+")) throw new Fail("parse", i + 1, `every line of an added file must start with '+', found '${clip(l)}'`);
    if (blanks > 0 && options.chord) {
      throw new Fail("parse", i, "every line of an added file must start with +; found a blank line (write an empty line as a lone +)");
    }
    for (; blanks > 0; blanks--) body.push("");
    body.push(l.slice(1));
  }
  return { body, next: i };
}

function opPath(header: string, prefix: string, line: number): string {
  const path = header.slice(prefix.length).trim();
  if (path === "") throw new Fail("parse", line, `'${prefix}' needs a path`);
  return path;
}

const changes = (h: Hunk): boolean => h.lines.some((l) => l.kind !== " ");

function parseHunks(lines: string[], start: number, last: number): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  // A context-only hunk waiting to see whether another `@@` follows it.
  let anchor: Hunk | undefined;
  let blanks = 0;
  let i = start;
  const close = () => {
    if (!cur) return;
    blanks = 0;
    if (cur.lines.length === 0) throw new Fail("parse", cur.line, "empty hunk: a '@@' header must be followed by hunk lines");
    if (!changes(cur)) {
      if (anchor === undefined && cur.lines.length === 1 && !cur.eof) anchor = cur;
      else throw contextOnly(anchor ?? cur);
    } else {
      if (anchor) throw contextOnly(anchor);
      hunks.push(cur);
    }
    cur = undefined;
  };
  for (; i < last; i++) {
    const l = lines[i]!;
    if (isOpHeader(l)) break;
    if (isEofMark(l)) {
      if (!cur || cur.lines.length === 0) throw new Fail("parse", i + 1, `'${EOF_MARK}' must follow hunk lines`);
      cur.eof = true;
      close();
      continue;
    }
    if (l === "") {
      blanks++;
      continue;
    }
    if (l.startsWith("@@")) {
      // Consecutive headers nest; a header after body lines starts a new hunk.
      if (cur && cur.lines.length > 0) close();
      blanks = 0;
      if (!cur) {
        cur = { scopes: [], lines: [], eof: false, line: i + 1 };
        // The lone context line of the hunk before anchors this one.
        if (anchor) {
          cur.scopes.push(anchor.lines[0]!.text);
          anchor = undefined;
        }
      }
      const scope = l.slice(2).trim().replace(UNIFIED_RANGE, "").trim();
      if (scope !== "" && !/^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@$/.test(scope)) cur.scopes.push(scope);
      continue;
    }
    const kind = l[0];
    if (kind !== " " && kind !== "-" && kind !== "+") {
      throw new Fail("parse", i + 1, `a hunk line must start with ' ', '-' or '+', found '${clip(l)}'`);
    }
    if (!cur && hunks.length > 0 && hunks[hunks.length - 1]!.eof && anchor === undefined) {
      throw new Fail("parse", i + 1, `hunk lines after '${EOF_MARK}' need a new '@@' header`);
    }
    if (!cur) {
      cur = { scopes: [], lines: [], eof: false, line: i + 1 };
      if (anchor) throw contextOnly(anchor);
    }
    // Blank lines between two body lines are empty context lines.
    for (; blanks > 0; blanks--) cur.lines.push({ kind: " ", text: "" });
    cur.lines.push({ kind, text: l.slice(1) });
  }
  close();
  if (anchor) throw contextOnly(anchor);
  return { hunks, next: i };
}

function contextOnly(h: Hunk): Fail {
  return new Fail(
    "parse",
    h.line,
    `the hunk at line ${h.line} has only context lines: at least one added or removed line is required; ` +
      "whitespace-only lines are not omission placeholders (a line starting with a space is context that must match the file)",
  );
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
