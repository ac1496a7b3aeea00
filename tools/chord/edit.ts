// Chord `edit`: replace exact text in one existing file. The
// current disk content is what is matched (no read is required: the exact
// match guards the anchor); old_string must be unique unless replace_all. If
// the file was read in full and has changed since, the edit still applies when
// the anchor matches, with a warning and a best-effort backup. The file keeps
// its encoding (any `read` can decode, chord-encode.ts), BOM and every line's
// ending. When old_string is not in the file exactly, a single match that
// differs only in punctuation forms (curly or straight quotes, full-width
// CJK punctuation) is used instead, keeping the file's own characters where
// the change does not touch them, and the result says so.

import { z } from "zod";
import { atomicWriteChecked, readChecked } from "../lib/pinned-fs.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { sizeAndLimit, tooLarge } from "../lib/file-limits.js";
import { didYouMeanList, echoPath, resolveInCwd } from "../lib/paths.js";
import { chordPaths } from "../lib/file-access.js";
import { decodeForChordEdit, encodeForChord, undecodableReason, UnencodableError } from "../lib/chord/encode.js";
import { backupBytes, deviceRefusal, noteOwnChange, observation, plain, sha256 } from "../lib/chord/observations.js";
import { noteChangedForRetry, noteMatchFailure } from "../lib/chord/retry-memory.js";
import { lfView, replaceKeepingEndings, type LfReplacement } from "../lib/line-endings.js";
import { findReplacements } from "../lib/chord/edit-match.js";
import { replacePreview } from "../lib/previews.js";
import { cleanedNote, controlCharRefusal, stripForMatching, stripInvisible, type Cleaned } from "../lib/invisible-chars.js";
import { planBatch, skippedLines } from "../lib/chord/edit-batch.js";
import { findCandidates } from "../lib/edit-candidates.js";
import { closestWindow, type ClosestWindow } from "../lib/chord/closest-window.js";
import { closestReport } from "../lib/chord/closest-report.js";
import { str } from "../lib/view.js";

// An entry's fields are optional here so that a batch names every entry
// that lacks one, instead of a schema error naming only the first.
const editEntrySchema = z.object({
  old_string: z.string().optional(),
  new_string: z.string().optional(),
  replace_all: z.boolean().optional(),
});

export const chordEditSchema = z.object({
  path: z.string(),
  old_string: z.string().optional(),
  new_string: z.string().optional(),
  replace_all: z.boolean().optional(),
  edits: z.array(editEntrySchema).optional(),
});

type EditArgs = z.infer<typeof chordEditSchema>;

/** What to replace: one old_string, or a batch of entries matched against the original text. */
type Request =
  | { kind: "one"; old: Cleaned; neu: Cleaned; all: boolean }
  | { kind: "batch"; entries: NonNullable<EditArgs["edits"]> };

/** The request the arguments make, or why they make none. */
function requestOf(args: EditArgs): Request | string {
  if (args.edits !== undefined) {
    // Zero-valued single-edit fields ask for nothing and may ride along.
    if ((args.old_string ?? "") !== "" || (args.new_string ?? "") !== "" || args.replace_all === true) {
      return "edits cannot be combined with old_string, new_string or replace_all; put every replacement in edits";
    }
    return { kind: "batch", entries: args.edits };
  }
  if (args.old_string === undefined) return "old_string is required (string), or edits: a list of {old_string, new_string}";
  if (args.new_string === undefined) return "new_string is required (string; an empty string deletes old_string)";
  if (args.old_string === "") return "old_string is required; use write to create a file or replace its whole content";
  // Orphaned variation selectors and loose zero-width runes come off
  // old_string before matching; text to be written loses every
  // content-free character. Both are counted.
  const old = stripForMatching(args.old_string.replace(/\r\n/g, "\n"));
  const neu = stripInvisible(args.new_string.replace(/\r\n/g, "\n"));
  if (old.text === "") {
    return (
      `old_string contains only invisible characters (${old.removed.length} orphaned variation selector(s) or zero-width marks) and cannot be matched; ` +
      "rebuild it from the visible file text you want to replace"
    );
  }
  if (neu.text === "" && args.new_string !== "") {
    return (
      "new_string contains only invisible characters; rebuild it with the visible text the file should contain " +
      "(send an empty new_string to delete the old_string text)"
    );
  }
  // A control character the old text does not already hold would be planted by the edit.
  const control = controlCharRefusal("new_string", neu.text, old.text);
  if (control) return control;
  if (old.text === neu.text) return "old_string and new_string are identical, no change needed";
  return { kind: "one", old, neu, all: args.replace_all === true };
}

interface Planned {
  replacements: LfReplacement[];
  /** What the result says before the sizes (`Replaced 1 occurrence …`). */
  head: string;
  /** What it says after them. */
  tail: string;
}

/** The replacements a request makes in the file's LF text, or the failure message. */
function plan(text: string, request: Request): Planned | string {
  if (request.kind === "batch") {
    const batch = planBatch(text, request.entries);
    if (!batch.ok) return batch.message;
    const n = batch.replacements.length;
    return {
      replacements: batch.replacements,
      head: `Applied ${batch.applied} edits (${n} replacement${n === 1 ? "" : "s"})${cleanedNote(batch.cleaned)}`,
      tail: skippedLines(batch.skipped),
    };
  }
  const found = findReplacements(text, request.old.text, request.neu.text, request.all);
  if (found.kind === "none") return notFoundMessage(text, request.old.text);
  if (found.kind === "many") {
    const how = found.tolerant ? " under punctuation/whitespace-tolerant matching" : "";
    return `old_string found ${found.count} times${how}, provide more context or set replace_all to true`;
  }
  const count = found.replacements.length;
  const via = found.tolerant
    ? ` via punctuation/whitespace-tolerant match at line${found.lines.length === 1 ? "" : "s"} ${found.lines.join(", ")}`
    : "";
  const what = count === 1 ? "1 occurrence" : `${count} occurrences`;
  return { replacements: found.replacements, head: `Replaced ${what}${via}${cleanedNote([...request.old.removed, ...request.neu.removed])}`, tail: "" };
}


export const chordEditTool: ToolHandler<typeof chordEditSchema> = {
  id: "chord_edit",
  schema: chordEditSchema,
  effects: MUTATES,
  touchKinds: new Set(["updates"]),
  touches: (args) => [{ path: args.path, as: "updates" }],
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    preview: (args, facts) => replacePreview(str(args, "path"), str(args, "old_string"), str(args, "new_string"), facts.cwd),
  },
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    const request = requestOf(args);
    if (typeof request === "string") return fail(request);
    if (request.kind === "batch" && request.entries.length > 0 && request.entries.every((e) => e.old_string !== undefined && e.old_string === e.new_string)) {
      return ok("No changes: every entry has identical old_string and new_string, so nothing was written.");
    }
    const { fs } = ctx.services;
    const shown = echoPath(ctx.cwd, args.path);
    const where = await resolveInCwd(fs, ctx.cwd, args.path, { forbidNewline: true, write: { ownDirs: ctx.services.ownDirs }, ...chordPaths(ctx, "write") });
    if (!where.ok) return fail(deviceRefusal(plain(where.error), "edit"));

    let bytes: Uint8Array;
    try {
      const st = await fs.stat(where.abs);
      if (st.isDirectory()) return fail(`${shown} is a directory`);
      if (tooLarge(st.size)) {
        return fail(`cannot edit ${shown}: file too large ${sizeAndLimit(st.size)}; change it with shell (sed, or a script that streams it) instead`);
      }
      bytes = await readChecked(fs, where.abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EACCES") return fail(`permission denied: ${shown}`);
      return fail(`file not found: ${shown}${await didYouMeanList(fs, ctx.cwd, args.path)}`);
    }
    const decoded = decodeForChordEdit(bytes, { keepEndings: true, file: where.abs });
    if (!decoded.ok) {
      return fail(decoded.reason === "binary" ? `cannot edit binary file: ${shown}` : `cannot edit ${shown}: ${undecodableReason(decoded)}`);
    }

    // Matched on the LF view the model reads; each line keeps its own ending.
    const view = lfView(decoded.text);
    const text = view.lf;
    const planned = plan(text, request);
    if (typeof planned === "string") {
      // Only a miss counts toward the re-read note: an ambiguous match needs more context instead.
      const missed = planned.startsWith("old_string not found");
      return fail(missed ? planned + noteMatchFailure(ctx.memory, where.abs, shown) : planned);
    }
    const after = replaceKeepingEndings(view, planned.replacements);
    // Encoded before anything touches the disk (the backup included), so an
    // unencodable character leaves no trace.
    let out: Uint8Array;
    try {
      out = await encodeForChord(after, { ...decoded, crlf: false });
    } catch (err) {
      if (err instanceof UnencodableError) return fail(`cannot edit ${shown}: ${err.message}`);
      throw err;
    }

    let warning = "";
    const seen = observation(ctx.memory, where.abs)?.seen;
    if (seen !== undefined && seen !== sha256(bytes)) {
      const backup = await backupBytes(fs, ctx.sessionDir, "edit", where.display, bytes).catch(() => undefined);
      warning =
        `\nwarning: ${shown} changed on disk since it was last read; the edit was applied to the current content` +
        (backup ? ` (previous content backed up to ${backup})` : "");
    }

    try {
      await atomicWriteChecked(fs, where.abs, out);
    } catch (err) {
      return fail(`cannot edit ${shown}: ${(err as Error).message}`);
    }
    noteOwnChange(ctx.memory, where.abs, sha256(out));
    noteChangedForRetry(ctx.memory, where.abs);
    const encoding = decoded.encoding ? `, encoding=${decoded.encoding}` : "";
    return ok(`${planned.head} (${bytes.byteLength} bytes -> ${out.byteLength} bytes)${encoding}${planned.tail}${warning}`);
  },
};

/**
 * Why old_string matched nowhere, with the nearest span when there is one:
 * text that matches once indentation is ignored is named as an indentation
 * mismatch, anything else by Chord's closest-match report.
 */
function notFoundMessage(text: string, oldStr: string): string {
  const head = "old_string not found in file, even after punctuation/whitespace tolerance.";
  const best = findCandidates(text, oldStr)[0];
  const drift = best && lineEdgeDrift(best.strategy, best.span, oldStr);
  if (best && drift) {
    const [what, copy] =
      drift === "indentation"
        ? ["Indentation mismatch", "the file's exact indentation (tabs vs spaces)"]
        : ["Trailing whitespace mismatch", "the file's exact line ends (its trailing spaces, or none)"];
    // The span may start after the first line's indentation: show whole lines, which is what to copy.
    const whole = text.split(/\r?\n/).slice(best.line - 1, best.line - 1 + best.span.replace(/\n$/, "").split("\n").length).join("\n");
    return `${head} ${what}: the text matches at line ${best.line} once leading/trailing whitespace is ignored; copy ${copy} from there:\n${numbered(whole, best.line)}`;
  }
  // The window search finds a block deep in the file that the cascade's capped span list may not reach.
  const window = closestWindow(text, oldStr);
  const shown = window && (!best || window.similarity >= best.similarity) ? window : best && candidateWindow(text, oldStr, best);
  if (shown) return `${head} ${closestReport(oldStr, shown).join("\n")}`;
  return (
    `${head} The target text may be stale or already changed, or differs beyond punctuation and spacing. ` +
    "Re-read the small target range from current file contents, then rebuild old_string from that fresh read; do not retry the same edit unchanged."
  );
}

/** A cascade candidate as a window: the whole file lines its span covers. */
function candidateWindow(text: string, oldStr: string, best: { line: number; span: string; similarity: number }): ClosestWindow {
  const count = best.span.replace(/\n$/, "").split("\n").length;
  const all = text.replace(/\n$/, "").split("\n");
  const lines = all.slice(best.line - 1, best.line - 1 + count).join("\n");
  const longest = Math.max(oldStr.length, lines.length);
  const short = count < oldStr.replace(/\n$/, "").split("\n").length && best.line - 1 + count < all.length;
  return { line: best.line, text: lines, similarity: best.similarity, distance: Math.round((1 - best.similarity) * longest), ...(short ? { short } : {}) };
}

/**
 * Whether the span differs from old_string only at its lines' edges: their
 * indentation, or their trailing whitespace. The cascade may have found it by
 * a broader strategy (any whitespace), so the lines themselves decide.
 */
function lineEdgeDrift(strategy: string, span: string, oldStr: string): "indentation" | "trailing" | undefined {
  if (strategy === "indentation_flexible") return "indentation";
  if (strategy === "line_trimmed") return "trailing";
  const mine = span.replace(/\n$/, "").split("\n");
  const theirs = oldStr.replace(/\n$/, "").split("\n");
  if (mine.length !== theirs.length) return undefined;
  const same = (edge: (l: string) => string) => mine.every((l, i) => edge(l) === edge(theirs[i]!));
  if (same((l) => l.trimStart())) return "indentation";
  if (same((l) => l.trimEnd())) return "trailing";
  return undefined;
}

function numbered(span: string, first: number): string {
  const lines = span.replace(/\n$/, "").split("\n").slice(0, 12);
  return lines.map((l, i) => `  ${first + i}| ${l}`).join("\n");
}
