import { describe, expect, it } from "vitest";
import { paginate, refusalEnvelope, searchEnvelope, xmlEscape } from "../../tools/lib/search-envelope.js";

describe("search envelope", () => {
  it("escapes & \" ' < > in attributes", () => {
    expect(xmlEscape(`a&b"c'd<e>f`)).toBe("a&amp;b&quot;c&apos;d&lt;e&gt;f");
  });

  it("puts attributes in a fixed order, lines between the tags", () => {
    const text = searchEnvelope(
      { tool: "grep", total: 3, shown: 2, page: 1, nextPage: 2, pattern: "a<b", scope: "src glob=*.ts" },
      ["x:1:a", "y:2:b"],
    );
    expect(text).toBe(
      '<search_result tool="grep" total="3" shown="2" page="1" next_page="2" pattern="a&lt;b" scope="src glob=*.ts">\n' +
        "x:1:a\ny:2:b\n</search_result>",
    );
  });

  it("builds a refusal with a hint and no lines", () => {
    expect(refusalEnvelope("glob", "**/*", ".", 0, "too 'broad'")).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="**/*" scope="." hint="too &apos;broad&apos;">\n</search_result>',
    );
  });

  it("pages from 1, coerces page < 1 and sets next_page to 0 on the last page", () => {
    const all = [1, 2, 3, 4, 5];
    expect(paginate(all, undefined, 2)).toEqual({ page: 1, items: [1, 2], nextPage: 2 });
    expect(paginate(all, -3, 2)).toEqual({ page: 1, items: [1, 2], nextPage: 2 });
    expect(paginate(all, 3, 2)).toEqual({ page: 3, items: [5], nextPage: 0 });
    expect(paginate(all, 2, 3)).toEqual({ page: 2, items: [4, 5], nextPage: 0 });
    expect(paginate([], 1, 3)).toEqual({ page: 1, items: [], nextPage: 0 });
  });
});
