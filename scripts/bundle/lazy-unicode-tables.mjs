// String-width and the ANSI tokenizers build an Intl.Segmenter (ICU's break
// iterator data) and string-width its RGI_Emoji regular expression when they
// load: together ~30 ms of every start on an idle core, ~100 ms on a loaded
// one, although plain ASCII text (most of what a headless run measures) never
// uses them. This plugin makes each one on its first use instead. It only
// touches a top-level `const NAME = new Intl.Segmenter(...)` (or `/...$/v`
// regex) whose every other use is `NAME.segment(` (or `NAME.test(`); a file
// that uses one any other way is left as it is.

import { readFile } from "node:fs/promises";

const FILES = /[\\/]node_modules[\\/](string-width|slice-ansi|@alcalzone[\\/]ansi-tokenize)[\\/].*\.js$/;

/** `source` with each eligible table made on first use. */
export function lazify(source) {
  const declaration = /^const (\w+) = (new Intl\.Segmenter\([^;\n]*\)|\/\^\\p\{RGI_Emoji\}\$\/v);$/gm;
  return source.replace(declaration, (whole, name, init) => {
    const method = init.startsWith("new") ? "segment" : "test";
    if (otherUses(source, name, method) !== 1) return whole; // 1: the declaration itself
    return `let ${name}$made;\nconst ${name} = { ${method}: (s) => (${name}$made ??= ${init}).${method}(s) };`;
  });
}

// Uses of `name` other than `name.method(`, not counting those in a line comment.
function otherUses(source, name, method) {
  let count = 0;
  for (const m of source.matchAll(new RegExp(`\\b${name}\\b(\\.\\w+\\()?`, "g"))) {
    if (m[0] === `${name}.${method}(`) continue;
    const lineStart = source.lastIndexOf("\n", m.index) + 1;
    if (source.slice(lineStart, m.index).includes("//")) continue;
    count++;
  }
  return count;
}

export function lazyUnicodeTables() {
  return {
    name: "lazy-unicode-tables",
    setup(b) {
      b.onLoad({ filter: FILES }, async (args) => {
        const source = await readFile(args.path, "utf8");
        if (!source.includes("new Intl.Segmenter(") && !source.includes("RGI_Emoji")) return undefined;
        return { contents: lazify(source), loader: "js" };
      });
    },
  };
}
