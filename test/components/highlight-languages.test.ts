// The grammar subset the bundle gives cli-highlight: it highlights what
// models write, answers the four calls cli-highlight makes, and replaces
// the full highlight.js in the built bundle.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as subset from "../../components/cards/highlight-languages.js";

describe("highlight.js grammar subset", () => {
  it("highlights common languages by name and alias", () => {
    for (const lang of ["ts", "typescript", "js", "python", "py", "sh", "bash", "go", "rust", "json", "yaml", "yml", "html", "toml", "diff", "sql"]) {
      expect(subset.getLanguage(lang), lang).toBeTruthy();
    }
    const out = subset.highlight("const x: number = 1;", { language: "typescript" }).value;
    expect(out).toContain('<span class="hljs-keyword">const</span>');
  });

  it("leaves out rare grammars", () => {
    expect(subset.getLanguage("mathematica")).toBeUndefined();
    expect(subset.listLanguages().length).toBeLessThan(40);
  });

  it("is what the built bundle carries instead of every grammar", () => {
    const dist = join(import.meta.dirname, "..", "..", "dist");
    const all = readdirSync(dist)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(dist, f), "utf8"))
      .join("\n");
    expect(all).toContain("// components/cards/highlight-languages.ts");
    expect(all).toContain("node_modules/highlight.js/lib/languages/typescript.js");
    expect(all).not.toContain("node_modules/highlight.js/lib/languages/mathematica.js");
    expect(all).not.toContain("node_modules/highlight.js/lib/index.js");
  });
});
