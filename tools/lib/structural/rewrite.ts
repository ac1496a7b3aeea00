// The rewrite a replacement template makes of one text: each match's @match
// node is replaced by the template, with `${name}` standing for the text of
// capture `name` of that match (`$${` writes a literal `${`). A capture a
// match holds zero times or several times has no one text, so it is an
// error, as are two matches whose nodes overlap (the order of the edits would
// decide the result). Pure: offsets are the parser's UTF-16 ones.

import type { FoundMatch } from "./match.js";

export interface Edit {
  start: number;
  end: number;
  insert: string;
}

export type Plan =
  | { ok: true; edits: Edit[]; after: string }
  | { ok: false; kind: "missing_capture" | "overlap"; error: string };

const PLACEHOLDER = /\$\$\{|\$\{([^}]*)\}/g;

type Filled = { ok: true; text: string } | { ok: false; name: string; count: number };

function fillTemplate(template: string, match: FoundMatch): Filled {
  let missing: { name: string; count: number } | undefined;
  const text = template.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (whole === "$${") return "${";
    const held = match.captures.filter((c) => c.name === name);
    if (held.length !== 1) {
      missing ??= { name: name!, count: held.length };
      return whole;
    }
    return held[0]!.text;
  });
  return missing ? { ok: false, ...missing } : { ok: true, text };
}

/**
 * `where(m)` names a match's location for messages. `captureNames` are all
 * the query's captures, to tell a misspelt name from one this match lacks.
 */
export function planRewrite(
  text: string,
  matches: readonly FoundMatch[],
  template: string,
  where: (m: FoundMatch) => string,
  captureNames: readonly string[],
): Plan {
  const edits: Array<Edit & { match: FoundMatch }> = [];
  for (const m of matches) {
    const filled = fillTemplate(template, m);
    if (!filled.ok) {
      const why = !captureNames.includes(filled.name)
        ? `the query has no capture @${filled.name} (its captures: ${captureNames.map((n) => `@${n}`).join(", ")})`
        : filled.count === 0
          ? `the match at ${where(m)} has no @${filled.name} capture`
          : `the match at ${where(m)} holds @${filled.name} ${filled.count} times, so it has no one text`;
      return {
        ok: false,
        kind: "missing_capture",
        error: `ERROR: missing capture: the replacement uses \${${filled.name}}, but ${why}. ` +
          "A placeholder must name a capture that occurs exactly once in every match.",
      };
    }
    edits.push({ start: m.start, end: m.end, insert: filled.text, match: m });
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const distinct: typeof edits = [];
  for (const e of edits) {
    const prev = distinct[distinct.length - 1];
    if (prev && prev.start === e.start && prev.end === e.end && prev.insert === e.insert) continue;
    if (prev && (e.start < prev.end || (e.start === prev.start && e.end === prev.end))) {
      return {
        ok: false,
        kind: "overlap",
        error: `ERROR: overlapping matches: the match at ${where(prev.match)} and the match at ${where(e.match)} overlap, ` +
          "so the rewrite is ambiguous. Narrow the query so that matches do not contain one another " +
          "(for example anchor it with a parent node or a predicate).",
      };
    }
    distinct.push(e);
  }
  const changed = distinct.filter((e) => text.slice(e.start, e.end) !== e.insert).map(({ start, end, insert }) => ({ start, end, insert }));
  return { ok: true, edits: changed, after: applyEdits(text, changed) };
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(text.slice(at, e.start), e.insert);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
