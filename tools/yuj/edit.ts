// `edit`: replace the one exact copy of old_str. Two or more copies change
// nothing and list them (which one the model meant is a guess); a miss answers
// with ranked near-match candidates; with the fuzzy cascade enabled a single
// unambiguous near match is applied instead and the result names the strategy.
// The file keeps its BOM and every line its own ending.

import { z } from "zod";
import { skillPathReadOnly } from "../lib/skill-files.js";
import { pathSpellingError } from "../lib/path-spelling.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import {
  STRATEGIES,
  exactCandidates,
  findCandidates,
  formatCandidates,
  reindent,
  strategyCandidates,
  trimBoundary,
  type Candidate,
  type Strategy,
} from "../lib/edit-candidates.js";
import { tooLargeToChange } from "../lib/file-limits.js";
import { readExistingFile } from "../lib/paths.js";
import { atomicWriteChecked } from "../lib/pinned-fs.js";
import { yujPaths } from "../lib/file-access.js";
import { decodeTextKeepingEndings, encodeText } from "../lib/text-file.js";
import { lfView, replaceKeepingEndings } from "../lib/line-endings.js";
import { replacePreview } from "../lib/previews.js";
import { shownPath, str } from "../lib/view.js";
import { fsErrorText } from "../lib/fs-error.js";

export const editSchema = z.object({
  path: z.string(),
  old_str: z.string(),
  new_str: z.string(),
});

const EMPTY_OLD_STR =
  "ERROR: old_str must be non-empty — an empty old_str would silently prepend new_str to the file. " +
  "Use `write` to create or replace whole-file content.";

// A block_anchor span only shares its first and last lines with old_str, so it
// is applied automatically only when the interior is also close.
const BLOCK_ANCHOR_MIN_SIMILARITY = 0.7;

// The copies counted are bounded by the candidate search's own span limit.
const MAX_LISTED_COPIES = 50;

interface Replacement {
  start: number;
  end: number;
  insert: string;
  strategy?: Strategy;
}

/** The unique line_trimmed or indentation_flexible replacement starting on `line`, if any. */
function lineWiseAt(text: string, oldStr: string, newStr: string, line: number): Omit<Replacement, "strategy"> | undefined {
  for (const strategy of ["line_trimmed", "indentation_flexible"] as const) {
    const found = strategyCandidates(strategy, text, oldStr);
    const c = found.length === 1 && found[0]!.line === line ? found[0]! : undefined;
    if (!c) continue;
    const insert = strategy === "indentation_flexible" ? reindent(newStr, oldStr, c.span) : newStr;
    return { start: c.start, end: c.end, insert };
  }
  return undefined;
}

function fuzzy(text: string, oldStr: string, newStr: string): Replacement | undefined {
  for (const strategy of STRATEGIES) {
    const found = strategyCandidates(strategy, text, oldStr);
    // Two equally good places to edit is a guess, not a match.
    if (found.length !== 1) continue;
    const c = found[0]!;
    if (strategy === "block_anchor" && c.similarity < BLOCK_ANCHOR_MIN_SIMILARITY) continue;
    if (strategy === "whitespace_normalized") {
      // Whitespace drift is named first, but when a line-wise strategy finds
      // the same place, its whole-line span is replaced: a trailing newline or
      // an indent shift in old_str then lands as the model meant instead of
      // leaving a stray blank tail or a block at the wrong depth.
      const lineWise = lineWiseAt(text, oldStr, newStr, c.line);
      if (lineWise) return { ...lineWise, strategy };
    }
    const insert =
      strategy === "indentation_flexible"
        ? reindent(newStr, oldStr, c.span)
        : strategy === "trimmed_boundary"
          ? trimBoundary(newStr, oldStr)
          : newStr;
    return { start: c.start, end: c.end, insert, strategy };
  }
  return undefined;
}

/** read's `N: ` prefix on a line, as a model copies it from the numbered view. */
const NUMBERED = /^\d+: ?/;

/**
 * When old_str is read's numbered view of text the file holds (every line
 * prefixed `N: `), the note saying to drop the prefixes; "" otherwise.
 */
function lineNumberHint(text: string, oldStr: string): string {
  const lines = oldStr.split("\n");
  if (!lines.every((l, i) => NUMBERED.test(l) || (i === lines.length - 1 && l === ""))) return "";
  const bare = lines.map((l) => l.replace(NUMBERED, "")).join("\n");
  if (bare.trim() === "" || !text.includes(bare)) return "";
  return "\nold_str carries read's line-number prefixes (`N: `), which are not in the file; pass the lines without them.";
}

export const editTool: ToolHandler<typeof editSchema> = {
  id: "edit",
  schema: editSchema,
  effects: MUTATES,
  touchKinds: new Set(["updates"]),
  touches: (args) => [{ path: args.path, as: "updates" }],
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    preview: (args, facts) => replacePreview(str(args, "path"), str(args, "old_str"), str(args, "new_str"), facts.cwd),
  },
  async run(args, ctx) {
    const spelling = await pathSpellingError(ctx.services.fs, ctx.cwd, args.path);
    if (spelling) return fail(spelling);
    if (args.old_str === "") return fail(EMPTY_OLD_STR);
    const skillRefusal = await skillPathReadOnly(ctx, args.path);
    if (skillRefusal) return fail(skillRefusal);
    const { fs } = ctx.services;
    // An absolute path inside the project is echoed relative, as read echoes it.
    const shown = shownPath(args.path, ctx.cwd);
    const file = await readExistingFile(fs, ctx.cwd, args.path, {
      verb: "edit",
      directory: `ERROR: cannot edit ${shown}: it is a directory`,
      forbidNewline: true,
      write: { ownDirs: ctx.services.ownDirs },
      access: yujPaths(ctx, "write"),
      tooLarge: tooLargeToChange("edit", shown),
    });
    if (!file.ok) return fail(file.error);
    const { bytes } = file;
    const decoded = decodeTextKeepingEndings(bytes);
    if (!decoded) {
      return fail(
        `ERROR: cannot edit ${shown}: file is not valid UTF-8 (likely a binary file). ` +
          "Use `write` to overwrite or `apply_patch` for byte-level changes.",
      );
    }

    // The model sees LF text (read strips CR), so match and insert in LF;
    // each line keeps its own ending when the result is written back.
    const view = lfView(decoded.text);
    const text = view.lf;
    const oldStr = args.old_str.replace(/\r\n/g, "\n");
    const newStr = args.new_str.replace(/\r\n/g, "\n");
    // Most edits hit one copy: only a second one is worth listing every copy for.
    const at = text.indexOf(oldStr);
    if (at >= 0 && text.indexOf(oldStr, at + 1) >= 0) {
      return fail(ambiguous(shown, exactCandidates(text, oldStr), ctx.config.tools.edit_candidate_count));
    }
    const rep: Replacement | undefined =
      at >= 0
        ? { start: at, end: at + oldStr.length, insert: newStr }
        : ctx.config.tools.edit_fuzzy_cascade_enabled
          ? fuzzy(text, oldStr, newStr)
          : undefined;
    if (!rep) {
      const count = ctx.config.tools.edit_candidate_count;
      const candidates = count > 0 ? findCandidates(text, oldStr).slice(0, count) : [];
      const block = formatCandidates(shown, candidates);
      return fail(`ERROR: old_str not found in ${shown}${block ? `\n${block}` : ""}${lineNumberHint(text, oldStr)}`);
    }

    const after = text.slice(0, rep.start) + rep.insert + text.slice(rep.end);
    if (after !== text) {
      try {
        await atomicWriteChecked(fs, file.abs, encodeText(replaceKeepingEndings(view, [rep]), decoded));
      } catch (err) {
        return fail(`ERROR: cannot edit ${shown}: ${fsErrorText(err)}`);
      }
    }
    const status = rep.strategy ? `OK (${rep.strategy.replace(/_/g, "-")})` : "OK";
    return ok(status, { kind: "diff", files: [{ path: file.display, op: "update", hunks: diffHunk(text, rep) }], note: status });
  },
};

/** The refusal of an old_str found more than once, listing where (up to `count` copies). */
function ambiguous(shown: string, copies: Candidate[], count: number): string {
  const head = `ERROR: old_str matches more than once in ${shown}. No changes made. Include unique surrounding text in old_str.`;
  const listed = copies.slice(0, count);
  if (!listed.length) return head;
  const all = copies.length >= MAX_LISTED_COPIES ? `${copies.length} or more` : String(copies.length);
  const more = copies.length > listed.length ? `\n(${all} copies; the first ${listed.length} are listed)` : "";
  return `${head}\n${formatCandidates(shown, listed)}${more}`;
}

const CONTEXT_LINES = 2;

/** Newlines in text[from, to). */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The unified diff hunk of the changed lines, for the view only. Only the
 * lines around the change are cut out of `before`: splitting a large file
 * into all of its lines cost more than the edit itself.
 */
function diffHunk(before: string, rep: Replacement): string {
  const firstLine = countNewlines(before, 0, rep.start);
  const lineStart = rep.start === 0 ? 0 : before.lastIndexOf("\n", rep.start - 1) + 1;
  const nextNl = before.indexOf("\n", rep.end);
  const lineEnd = nextNl < 0 ? before.length : nextNl;
  const removed = before.slice(lineStart, lineEnd).split("\n");
  const added = (before.slice(lineStart, rep.start) + rep.insert + before.slice(rep.end, lineEnd)).split("\n");
  // Up to CONTEXT_LINES whole lines before lineStart, and after lineEnd.
  const ctxBefore: string[] = [];
  for (let end = lineStart - 1; end >= 0 && ctxBefore.length < CONTEXT_LINES; ) {
    const start = end === 0 ? 0 : before.lastIndexOf("\n", end - 1) + 1;
    ctxBefore.unshift(before.slice(start, end));
    end = start - 1;
  }
  const ctxAfter: string[] = [];
  for (let start = lineEnd + 1; nextNl >= 0 && ctxAfter.length < CONTEXT_LINES; ) {
    const nl = before.indexOf("\n", start);
    ctxAfter.push(before.slice(start, nl < 0 ? before.length : nl));
    if (nl < 0) break;
    start = nl + 1;
  }
  const from = firstLine - ctxBefore.length + 1;
  const oldCount = ctxBefore.length + removed.length + ctxAfter.length;
  const newCount = ctxBefore.length + added.length + ctxAfter.length;
  return [
    `@@ -${from},${oldCount} +${from},${newCount} @@`,
    ...ctxBefore.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...ctxAfter.map((l) => ` ${l}`),
  ].join("\n");
}
