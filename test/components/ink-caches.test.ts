// The bounded stand-ins for Ink's text caches: same results as Ink's own
// modules, a cache that stops growing, and the bundle really using them.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import inkMeasure from "../../node_modules/ink/build/measure-text.js";
import inkWrap from "../../node_modules/ink/build/wrap-text.js";
import { boundedCache } from "../../components/ink-caches/bounded-cache.js";
import measureText from "../../components/ink-caches/measure-text.js";
import wrapText from "../../components/ink-caches/wrap-text.js";
import cachedWidestLine from "../../components/ink-caches/widest-line.js";
import widestLine from "widest-line";

const samples = [
  "",
  "plain",
  "two\nlines",
  "\u001b[1mbold\u001b[22m and \u001b[31mred\u001b[39m text that runs past the width limit",
  "wide: 你好世界 and emoji 🎉🎉 mixed with ascii",
  "trailing newline\n",
  "a".repeat(300),
  "tabs\tand  spaces   kept",
];

describe("Ink text caches", () => {
  it("measure exactly as Ink's own module", () => {
    for (const s of samples) expect(measureText(s), JSON.stringify(s)).toEqual(inkMeasure(s));
  });

  it("measure the widest line as widest-line does, asked once or again", () => {
    for (const s of [...samples, ...samples]) expect(cachedWidestLine(s), JSON.stringify(s)).toBe(widestLine(s));
  });

  it("wrap and truncate exactly as Ink's own module", () => {
    const types = ["wrap", "truncate", "truncate-end", "truncate-middle", "truncate-start", "end", "middle"] as const;
    for (const s of samples) {
      for (const width of [1, 5, 20, 80]) {
        for (const type of types) expect(wrapText(s, width, type), `${type} ${width} ${JSON.stringify(s)}`).toBe(inkWrap(s, width, type));
      }
    }
  });

  it("evict the least recently used entry past the limit", () => {
    const cache = boundedCache<number>(3);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1); // a is now the most recent
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([1, 3, 4]);
  });

  it("replace Ink's modules in the built bundle", () => {
    const dist = join(import.meta.dirname, "..", "..", "dist");
    const sources = readdirSync(dist)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(dist, f), "utf8"));
    const all = sources.join("\n");
    expect(all).toContain("// components/ink-caches/measure-text.ts");
    expect(all).toContain("// components/ink-caches/wrap-text.ts");
    expect(all).not.toContain("node_modules/ink/build/measure-text.js");
    expect(all).not.toContain("node_modules/ink/build/wrap-text.js");
  });
});
