// Parser for the Codex V4A patch envelope (digest 1.12, 2.1):
//
//   *** Begin Patch
//   *** Add File: path        (body: every line starts with "+")
//   *** Delete File: path
//   *** Update File: path
//   *** Move to: new/path      (Chord only; directly after Update)
//   @@ scope header            (zero or more, nested; each searched after the previous)
//    context / -removed / +added   (a blank line is an empty context line)
//   *** End of File            (pins the hunk before it to the end of the file)
//   *** End Patch
//
// The parser only reads the text; locating hunks and touching files is the
// caller's business. Every error names the 1-based patch line it is about.

export interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
}

export interface Hunk {
  /** `@@ text` headers before the hunk, outermost first. */
  scopes: string[];
  lines: HunkLine[];
  /** `*** End of File` followed the hunk: it must match at the file's tail. */
  eof: boolean;
  /** Patch line where the hunk starts (its first header or body line). */
  line: number;
  /** 0-based old-file line where the hunk should start (udiff headers only). */
  hint?: number;
}

export type PatchOp =
  | { kind: "add"; path: string; lines: string[]; line: number }
  | { kind: "delete"; path: string; line: number }
  | { kind: "update"; path: string; moveTo?: string; hunks: Hunk[]; line: number };

export type ParseErrorKind = "parse" | "unknown_op_kind";

export type ParseResult = { ok: true; ops: PatchOp[] } | { ok: false; kind: ParseErrorKind; line: number; message: string };

export interface ParseOptions {
  /** Accept `*** Move to:` (Chord). Yuj refuses it as an unknown op kind. */
  allowMove?: boolean;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const EOF_MARK = "*** End of File";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";

/** Old lines of a hunk (context and removed), in order. */
export const oldLines = (h: Hunk): string[] => h.lines.filter((l) => l.kind !== "+").map((l) => l.text);
/** New lines of a hunk (context and added), in order. */
export const newLines = (h: Hunk): string[] => h.lines.filter((l) => l.kind !== "-").map((l) => l.text);

class Fail {
  constructor(
    readonly kind: ParseErrorKind,
    readonly line: number,
    readonly message: string,
  ) {}
}

const isOpHeader = (l: string): boolean => l.startsWith("*** ");

export function parseV4A(patch: string, options: ParseOptions = {}): ParseResult {
  try {
    return { ok: true, ops: parseOrThrow(patch, options) };
  } catch (err) {
    if (err instanceof Fail) return { ok: false, kind: err.kind, line: err.line, message: `line ${err.line}: ${err.message}` };
    throw err;
  }
}

function parseOrThrow(patch: string, options: ParseOptions): PatchOp[] {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  if (i >= lines.length) throw new Fail("parse", 1, `the patch is empty; it must start with '${BEGIN}'`);
  if (lines[i]!.trim() !== BEGIN) throw new Fail("parse", i + 1, `expected '${BEGIN}', found '${clip(lines[i]!)}'`);
  let last = lines.length - 1;
  while (last > i && lines[last]!.trim() === "") last--;
  if (last === i || lines[last]!.trim() !== END) {
    throw new Fail("parse", last + 1, `the patch must end with '${END}'`);
  }

  const ops: PatchOp[] = [];
  i++;
  while (i < last) {
    const raw = lines[i]!;
    const line = i + 1;
    const header = raw.trimEnd();
    if (header.trim() === "") {
      i++;
      continue;
    }
    if (header.startsWith(ADD)) {
      const path = opPath(header, ADD, line);
      const body: string[] = [];
      i++;
      while (i < last && !isOpHeader(lines[i]!)) {
        const l = lines[i]!;
        if (l.startsWith("+")) body.push(l.slice(1));
        else if (l === "") body.push("");
        else throw new Fail("parse", i + 1, `every line of an added file must start with '+', found '${clip(l)}'`);
        i++;
      }
      ops.push({ kind: "add", path, lines: body, line });
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
      let moveTo: string | undefined;
      if (i < last && lines[i]!.startsWith(MOVE)) {
        if (!options.allowMove) throw moveRefused(i + 1);
        moveTo = opPath(lines[i]!.trimEnd(), MOVE, i + 1);
        i++;
      }
      const { hunks, next } = parseHunks(lines, i, last);
      if (hunks.length === 0) throw new Fail("parse", line, `'${UPDATE} ${path}' has no hunks`);
      ops.push(moveTo === undefined ? { kind: "update", path, hunks, line } : { kind: "update", path, moveTo, hunks, line });
      i = next;
      continue;
    }
    if (header.startsWith(MOVE)) {
      throw options.allowMove ? new Fail("parse", line, `'${MOVE}' must directly follow an '${UPDATE}' line`) : moveRefused(line);
    }
    const unknown = /^\*\*\* ([A-Za-z]+(?: [A-Za-z]+)*)(?::|$)/.exec(header);
    if (unknown && header !== EOF_MARK && header !== BEGIN) {
      throw new Fail("unknown_op_kind", line, `unknown operation '*** ${unknown[1]}'; use Add File, Delete File or Update File`);
    }
    throw new Fail("parse", line, `expected an '*** Add File:', '*** Delete File:' or '*** Update File:' line, found '${clip(raw)}'`);
  }
  if (ops.length === 0) throw new Fail("parse", last + 1, "the patch contains no operations");
  return ops;
}

function moveRefused(line: number): Fail {
  return new Fail(
    "unknown_op_kind",
    line,
    `unsupported operation '${MOVE}': this apply_patch cannot move files; add the new file and delete the old one instead`,
  );
}

function opPath(header: string, prefix: string, line: number): string {
  const path = header.slice(prefix.length).trim();
  if (path === "") throw new Fail("parse", line, `'${prefix}' needs a path`);
  return path;
}

function parseHunks(lines: string[], start: number, last: number): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  let i = start;
  const close = () => {
    if (!cur) return;
    if (cur.lines.length === 0) throw new Fail("parse", cur.line, "empty hunk: a '@@' header must be followed by hunk lines");
    hunks.push(cur);
    cur = undefined;
  };
  for (; i < last; i++) {
    const l = lines[i]!;
    if (l.trimEnd() === EOF_MARK) {
      if (!cur || cur.lines.length === 0) throw new Fail("parse", i + 1, `'${EOF_MARK}' must follow hunk lines`);
      cur.eof = true;
      close();
      continue;
    }
    if (isOpHeader(l)) break;
    if (l.startsWith("@@")) {
      // Consecutive headers nest; a header after body lines starts a new hunk.
      if (cur && cur.lines.length > 0) close();
      cur ??= { scopes: [], lines: [], eof: false, line: i + 1 };
      const scope = l.slice(2).trim();
      if (scope !== "") cur.scopes.push(scope);
      continue;
    }
    const kind = l === "" ? " " : l[0];
    if (kind !== " " && kind !== "-" && kind !== "+") {
      throw new Fail("parse", i + 1, `a hunk line must start with ' ', '-' or '+', found '${clip(l)}'`);
    }
    if (!cur && hunks.length > 0 && hunks[hunks.length - 1]!.eof) {
      throw new Fail("parse", i + 1, `hunk lines after '${EOF_MARK}' need a new '@@' header`);
    }
    cur ??= { scopes: [], lines: [], eof: false, line: i + 1 };
    cur.lines.push({ kind, text: l.slice(1) });
  }
  close();
  return { hunks, next: i };
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
