import { describe, expect, it } from "vitest";
import { eraseInSearch, searchOlder, startSearch, typeInSearch } from "../../components/history-search.js";

const history = ["npm test", "fix the parser", "run npm test again", "explain the lexer"];

describe("history search (Ctrl+R)", () => {
  it("finds the newest entry that contains the query, then older ones", () => {
    let s = startSearch(history);
    for (const ch of "npm") s = typeInSearch(history, s, ch);
    expect(history[s.index!]).toBe("run npm test again");
    s = searchOlder(history, s);
    expect(history[s.index!]).toBe("npm test");
    // Nothing older: it stays.
    expect(searchOlder(history, s).index).toBe(s.index);
  });

  it("says when nothing matches and recovers on Backspace", () => {
    let s = startSearch(history);
    for (const ch of "lexz") s = typeInSearch(history, s, ch);
    expect(s.index).toBeUndefined();
    s = eraseInSearch(history, s);
    expect(history[s.index!]).toBe("explain the lexer");
  });

  it("matches regardless of case", () => {
    const s = typeInSearch(history, startSearch(history), "PARSER");
    expect(history[s.index!]).toBe("fix the parser");
  });
});
