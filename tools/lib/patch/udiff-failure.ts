// How Yuj's `udiff` tells a hunk it could not place: in the words and the
// `<candidates>` block the exact-string `edit` tool uses for a miss, so a
// model repairs either kind of failed edit the same way — copy a candidate's
// lines and retry.

import { xmlEscape } from "../search-envelope.js";
import type { Candidate, LocateResult } from "./locate.js";
import type { HunkErrorKind } from "./apply-file.js";
import type { Hunk } from "./v4a-parse.js";

type Failure = Extract<LocateResult, { ok: false }>;

/** The strategy a candidate is named by, and the cause hint the block opens with. */
function namesOf(found: Failure): { strategy: string; cause: string } {
  if (found.kind === "not_found") return { strategy: "closest_lines", cause: "no_match" };
  if (found.tier === "exact") return { strategy: "exact", cause: "multiple_matches" };
  return { strategy: "whitespace_normalized", cause: "whitespace_drift" };
}

/** The `<candidates>` block of the spans `found` lists; empty when there are none. */
function udiffCandidatesBlock(path: string, found: Failure, max = 3): string {
  const listed: readonly Candidate[] = found.candidates.slice(0, max);
  if (listed.length === 0) return "";
  const { strategy, cause } = namesOf(found);
  const out = [`<candidates total="${listed.length}" cause_hint="${cause}" path="${xmlEscape(path)}">`];
  for (const [i, c] of listed.entries()) {
    out.push(`  <candidate rank="${i + 1}" strategy="${strategy}" similarity="${c.score.toFixed(2)}" line="${c.line}">`);
    out.push(...c.lines, "  </candidate>");
  }
  out.push("</candidates>");
  return out.join("\n");
}

export function udiffLocateFailure(
  n: number,
  total: number,
  hunk: Hunk,
  found: Failure,
  path: string,
  from: number,
): { kind: HunkErrorKind; hunk: number; message: string } {
  const ambiguous = found.kind === "ambiguous";
  const which = `hunk ${n + 1}${total > 1 ? ` of ${total}` : ""}, patch line ${hunk.line}`;
  const head = ambiguous
    ? `hunk for ${path} matches more than one location (${which}: lines ${found.candidates.map((c) => c.line).join(", ")}); ` +
      "add context lines so it matches once. No files were changed."
    : `hunk for ${path} was not found (${which}${from > 0 ? `, searched after line ${from}` : ""}). No files were changed; ` +
      (found.candidates.length ? "copy the lines of a candidate below exactly." : "read the file and copy the lines exactly.");
  const block = udiffCandidatesBlock(path, found);
  return { kind: ambiguous ? "hunk_ambiguous" : "hunk_not_found", hunk: n + 1, message: block ? `${head}\n${block}` : head };
}
