// The build makes string-width's and the ANSI tokenizers' Unicode tables on
// first use (scripts/bundle/lazy-unicode-tables.mjs). Checked on the real
// installed modules: the change applies (an upgrade that defeats it fails
// here, not silently), and the changed string-width measures exactly as the
// original does.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script without types
import { lazify } from "../../scripts/bundle/lazy-unicode-tables.mjs";

const root = path.join(import.meta.dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(root, "node_modules", rel), "utf8");
const TOP_LEVEL_TABLE = /^const \w+ = (new Intl\.Segmenter\(|\/\^\\p\{RGI_Emoji\}\$\/v;)/m;

describe("lazy Unicode tables", () => {
  for (const file of ["string-width/index.js", "wrap-ansi/node_modules/string-width/index.js", "slice-ansi/tokenize-ansi.js", "@alcalzone/ansi-tokenize/build/tokenize.js"]) {
    it(`${file}: no segmenter or emoji regex is built at load`, () => {
      const source = read(file);
      expect(source).toMatch(TOP_LEVEL_TABLE);
      expect(lazify(source)).not.toMatch(TOP_LEVEL_TABLE);
    });
  }

  it("the changed string-width measures every kind of text as the original does", async () => {
    // Beside the real node_modules, so its own imports resolve.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-lazy-width-"));
    try {
      fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
      const file = path.join(dir, "string-width.mjs");
      fs.writeFileSync(file, lazify(read("string-width/index.js")));
      const { default: lazyWidth } = (await import(pathToFileURL(file).href)) as { default: (s: string) => number };
      const samples = ["plain ascii", "日本語のテキスト", "e\u0301", "👍🏽", "👨‍👩‍👧", "🇫🇷", "1\u20e3", "\u1100\u1161\u11a8", "\x1b[31mred\x1b[0m", "a\u200bb", "ｶﾞ", "", "\t"];
      for (const s of samples) expect(lazyWidth(s), JSON.stringify(s)).toBe(stringWidth(s));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
