// Parser for a standard unified diff, into the same file operations as the
// V4A parser (v4a-parse.ts), so one engine (plan.ts) checks and commits both:
//
//   --- a/path   (or /dev/null for a new file)
//   +++ b/path   (or /dev/null for a deleted file)
//   @@ -a,b +c,d @@
//    context / -removed / +added   (a blank line is an empty context line)
//
// Hunks are located by their old lines; a header's line number only places
// a pure insertion (`@@ -1,0 +2 @@` goes after line 1). `\ No newline at end
// of file` marks the line before it. `diff --git`, `index` and similar
// header lines are skipped.

import type { PatchErrorKind } from "./plan.js";
import type { Hunk, PatchOp } from "./v4a-parse.js";

export type UdiffParse = { ok: true; ops: PatchOp[] } | { ok: false; kind: PatchErrorKind; message: string };

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = "/dev/null";

function headerPath(line: string, marker: "---" | "+++"): string {
  let p = line.slice(marker.length).trim();
  // A tab separates an optional timestamp.
  const tab = p.indexOf("\t");
  if (tab >= 0) p = p.slice(0, tab).trim();
  if (p.startsWith('"') && p.endsWith('"') && p.length >= 2) p = p.slice(1, -1);
  if (p === DEV_NULL) return p;
  return p.replace(/^[ab]\//, "");
}

export function parseUdiff(patch: string): UdiffParse {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  const ops: PatchOp[] = [];
  const err = (line: number, message: string): UdiffParse => ({ ok: false, kind: "parse", message: `line ${line}: ${message}` });
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (!l.startsWith("--- ")) {
      if (l.startsWith("@@") || ((l.startsWith("+") || l.startsWith("-")) && ops.length === 0 && l.trim() !== "")) {
        return err(i + 1, "hunk lines before a '--- a/path' and '+++ b/path' file header");
      }
      i++;
      continue;
    }
    const fileLine = i + 1;
    const from = headerPath(l, "---");
    const plusLine = lines[i + 1];
    if (plusLine === undefined || !plusLine.startsWith("+++ ")) return err(i + 2, "a '--- ' header must be followed by a '+++ ' header");
    const to = headerPath(plusLine, "+++");
    if (from === DEV_NULL && to === DEV_NULL) return err(fileLine, "both sides are /dev/null");
    if (from === "" || to === "") return err(fileLine, "a file header needs a path");
    i += 2;
    const hunks: Hunk[] = [];
    while (i < lines.length) {
      const h = lines[i]!;
      if (h.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) break;
      if (h.startsWith("diff ")) break;
      if (!h.startsWith("@@")) {
        if (h.trim() === "") {
          i++;
          continue;
        }
        return err(i + 1, `expected a '@@ -a,b +c,d @@' hunk header, found '${clip(h)}'`);
      }
      const m = HUNK_HEADER.exec(h);
      if (!m) return err(i + 1, `malformed hunk header '${clip(h)}'; expected '@@ -a,b +c,d @@'`);
      const oldStart = Number(m[1]);
      // "-a,0" names the line the insertion goes after; otherwise "-a" is the first old line.
      const insertion = m[2] !== undefined && Number(m[2]) === 0;
      const hint = insertion ? oldStart : Math.max(0, oldStart - 1);
      const hunk: Hunk = { scopes: [], lines: [], eof: false, line: i + 1, hint };
      i++;
      // Blank lines at the end of a hunk separate it from what follows; they are not context.
      let blankTail = 0;
      for (; i < lines.length; i++) {
        const b = lines[i]!;
        if (b.startsWith("@@") || b.startsWith("diff ")) break;
        if (b.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) break;
        if (b.startsWith("\\")) {
          // "\ No newline at end of file": the line before it ends the file without a newline.
          const prev = hunk.lines[hunk.lines.length - 1];
          if (prev && blankTail === 0) prev.noNewline = true;
          continue;
        }
        const kind = b === "" ? " " : b[0];
        if (kind !== " " && kind !== "-" && kind !== "+") return err(i + 1, `a hunk line must start with ' ', '-' or '+', found '${clip(b)}'`);
        hunk.lines.push({ kind, text: b.slice(1) });
        blankTail = b === "" ? blankTail + 1 : 0;
      }
      hunk.lines.splice(hunk.lines.length - blankTail, blankTail);
      if (hunk.lines.length === 0) return err(hunk.line, "empty hunk");
      hunks.push(hunk);
    }
    if (from === DEV_NULL) {
      const bad = hunks.flatMap((h) => h.lines).some((x) => x.kind !== "+");
      if (bad) return err(fileLine, `a new file (--- /dev/null) may only have '+' lines: ${to}`);
      const body = hunks.flatMap((h) => h.lines);
      const add: PatchOp = { kind: "add", path: to, lines: body.map((x) => x.text), line: fileLine };
      if (body[body.length - 1]?.noNewline) add.noFinalNewline = true;
      ops.push(add);
    } else if (to === DEV_NULL) {
      // The file must end up empty: every line it has must be removed, which the plan checks.
      const bad = hunks.flatMap((h) => h.lines).some((x) => x.kind === "+");
      if (bad) return err(fileLine, `a deleted file (+++ /dev/null) may only have '-' lines: ${from}`);
      ops.push({ kind: "delete", path: from, line: fileLine, removes: hunks.flatMap((h) => h.lines.map((x) => x.text)) });
    } else {
      if (from !== to) {
        return { ok: false, kind: "unknown_op_kind", message: `line ${fileLine}: renaming ${from} to ${to} is not supported; add the new file and delete the old one` };
      }
      if (hunks.length === 0) return err(fileLine, `no hunks for ${to}`);
      ops.push({ kind: "update", path: to, hunks, line: fileLine });
    }
  }
  if (ops.length === 0) return err(1, "no file headers found; a unified diff starts with '--- a/path' and '+++ b/path'");
  return { ok: true, ops };
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
