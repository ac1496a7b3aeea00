// Comparing a replayed request body with the recorded one.
//
// The comparison is byte equality after these rules, and only these, are
// applied to the RECORDED body (the replay's body is taken as sent):
//   1. the original session directory  -> the replay's session directory
//      (saved tool output and image paths name it)
//   2. the original working directory  -> the replay's working directory
//      (the system prompt and tool results name it)
//   3. the original repository root    -> the replay's copy of it, when the
//      session ran in a subdirectory
// Longer paths are replaced first, so a path inside another is not split.
// The date in the system prompt is not normalised: the replay builds its
// system prompt with the recorded date instead.

export interface PathSwap {
  from: string;
  to: string;
}

export function normaliseRecorded(body: string, swaps: readonly PathSwap[]): string {
  let out = body;
  const ordered = swaps.filter((s) => s.from && s.from !== s.to).sort((a, b) => b.from.length - a.from.length);
  // Replace through placeholders so a replacement is never replaced again.
  ordered.forEach((s, i) => (out = out.split(s.from).join(`\u0000${i}\u0000`)));
  ordered.forEach((s, i) => (out = out.split(`\u0000${i}\u0000`).join(s.to)));
  return out;
}

/** Index of the first differing character, or -1 when the texts are equal. */
export function firstDifference(a: string, b: string): number {
  if (a === b) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

const CONTEXT = 60;

/** The text around `at`, on one line (newlines and tabs shown escaped), with where it was cut. */
export function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + CONTEXT);
  const body = text.slice(start, end).replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}
