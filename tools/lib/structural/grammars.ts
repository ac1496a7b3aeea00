// Loads tree-sitter and its grammars on first use, never at start-up: the
// runtime is a WebAssembly module and each grammar another, and a session
// that never searches by structure should not pay for either.
//
// Everything comes from installed packages (web-tree-sitter's runtime,
// tree-sitter-wasms' prebuilt grammars), found through Node's module
// resolution from this file, which works the same from the sources and
// from the esbuild bundle in dist/. A grammar that is not there is a setup
// problem to report, never something to download.

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setFlagsFromString } from "node:v8";
import type { Language, Parser } from "web-tree-sitter";
import { grammarFile, type LanguageName } from "./languages.js";

type TreeSitter = typeof import("web-tree-sitter");

/** A grammar or the runtime is missing from the installation. */
export class GrammarMissing extends Error {
  override name = "GrammarMissing";
}

const require = createRequire(import.meta.url);

let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<LanguageName, Promise<Language>>();

function resolvePackageFile(pkg: string, file: string): string | undefined {
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`)), file);
  } catch {
    return undefined;
  }
}

function runtimeWasm(): string {
  let wasm: string | undefined;
  try {
    wasm = require.resolve("web-tree-sitter/tree-sitter.wasm");
  } catch {
    wasm = undefined;
  }
  if (wasm === undefined || !existsSync(wasm)) {
    throw new GrammarMissing(
      "the tree-sitter runtime (web-tree-sitter/tree-sitter.wasm) is not installed; " +
        "yuj ships it as a dependency and never downloads it: reinstall yuj (npm ci in its folder)",
    );
  }
  return wasm;
}

async function loadRuntime(): Promise<TreeSitter> {
  const wasm = runtimeWasm();
  // V8 would otherwise recompile every grammar with TurboFan in the
  // background, and the process could not exit until it had finished
  // (seconds after a search); its baseline code parses as fast. The CLI
  // sets this at start too; here it also holds wherever the tools run.
  setFlagsFromString("--liftoff-only");
  const ts = await import("web-tree-sitter");
  await ts.Parser.init({ locateFile: () => wasm });
  return ts;
}

/** The tree-sitter module, initialised once per process. */
function treeSitter(): Promise<TreeSitter> {
  runtime ??= loadRuntime().catch((err: unknown) => {
    runtime = undefined;
    throw err;
  });
  return runtime;
}

/** Where a language's grammar is expected in the installation. */
function grammarPath(language: LanguageName): string | undefined {
  return resolvePackageFile("tree-sitter-wasms", join("out", grammarFile(language)));
}

async function loadLanguage(language: LanguageName): Promise<Language> {
  const path = grammarPath(language);
  if (path === undefined || !existsSync(path)) {
    throw new GrammarMissing(
      `the ${language} parser is not installed: ${path ?? `tree-sitter-wasms/out/${grammarFile(language)}`} is missing. ` +
        "yuj ships its parsers in the tree-sitter-wasms package and never downloads one: reinstall yuj (npm ci in its folder)",
    );
  }
  const ts = await treeSitter();
  return ts.Language.load(path);
}

function grammar(language: LanguageName): Promise<Language> {
  let loaded = languages.get(language);
  if (!loaded) {
    loaded = loadLanguage(language);
    languages.set(language, loaded);
    // A failed load is not remembered: the file may be restored.
    loaded.catch(() => languages.delete(language));
  }
  return loaded;
}

/** A parser for one language; the caller deletes it when done. */
export async function parserFor(language: LanguageName): Promise<{ parser: Parser; lang: Language; ts: TreeSitter }> {
  const lang = await grammar(language);
  const ts = await treeSitter();
  const parser = new ts.Parser();
  parser.setLanguage(lang);
  return { parser, lang, ts };
}
