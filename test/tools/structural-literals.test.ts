// A directory search skips the parse of a file that cannot hold a match,
// judged from the query's literal predicates. Skipping must never lose a
// match: for every query and text here, either the filter lets the text
// through or the real parser finds no match in it. And it must skip what it
// can, or it saves nothing.

import { describe, expect, it } from "vitest";
import { parserFor } from "../../tools/lib/structural/grammars.js";
import { scanText } from "../../tools/lib/structural/match.js";
import { compileQuery, mayMatch } from "../../tools/lib/structural/query.js";

async function check(query: string, text: string): Promise<{ passes: boolean; matches: number }> {
  const { parser, lang, ts } = await parserFor("python");
  const compiled = compileQuery(ts, lang, query, "python");
  if (!compiled.ok) throw new Error(compiled.error);
  try {
    const scan = scanText(parser, compiled.query, text);
    if (!scan.ok) throw new Error(scan.error);
    return { passes: mayMatch(compiled.needs, text), matches: scan.matches.length };
  } finally {
    compiled.query.delete();
    parser.delete();
  }
}

const CASES: Array<{ query: string; text: string; skipped: boolean }> = [
  { query: '((identifier) @match (#eq? @match "needle"))', text: "hay = stack\n", skipped: true },
  { query: '((identifier) @match (#eq? @match "needle"))', text: "needle = 1\n", skipped: false },
  { query: '((identifier) @match (#any-of? @match "a1" "b2"))', text: "b2 = 1\n", skipped: false },
  { query: '((identifier) @match (#any-of? @match "a1" "b2"))', text: "c3 = 1\n", skipped: true },
  // Negations and regexes add no condition.
  { query: '((identifier) @match (#not-eq? @match "needle"))', text: "x = 1\n", skipped: false },
  { query: '((identifier) @match (#match? @match "^ne+dle$"))', text: "needle = 1\n", skipped: false },
  // A predicate on an optional capture holds with no node: no condition.
  { query: '(assignment left: (identifier) @match type: (type)? @t (#eq? @t "int"))', text: "x = 1\n", skipped: false },
  // One of two patterns has no literal: every text passes.
  { query: '((identifier) @match (#eq? @match "needle"))\n(integer) @match', text: "x = 1\n", skipped: false },
  // Both patterns have one: a text with the second's passes.
  { query: '((identifier) @match (#eq? @match "needle"))\n((integer) @match (#eq? @match "42"))', text: "x = 42\n", skipped: false },
  // Escapes in the literal, and a commented-out predicate that is not part of the query.
  { query: '((string) @match (#eq? @match "\\"q\\""))', text: 'x = "q"\n', skipped: false },
  { query: '; (#eq? @match "zzz")\n((identifier) @match (#eq? @match "yy"))', text: "yy = 1\n", skipped: false },
  { query: '((identifier) @match (#eq? @match "née"))', text: "née = 1\n", skipped: false },
  { query: '((identifier) @match (#eq? @match "née"))', text: "nee = 1\n", skipped: true },
];

describe("the literal pre-filter of directory searches", () => {
  for (const c of CASES) {
    it(`${c.skipped ? "skips" : "keeps"} ${JSON.stringify(c.text)} for ${c.query.replace(/\n/g, " | ")}`, async () => {
      const { passes, matches } = await check(c.query, c.text);
      // Sound: a skipped text has no match.
      if (!passes) expect(matches).toBe(0);
      expect(passes).toBe(!c.skipped);
    });
  }
});
