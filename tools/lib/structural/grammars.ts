// Loads tree-sitter and its grammars on first use, never at start-up: the
// runtime is a WebAssembly module and each grammar another, and a session
// that never searches by structure should not pay for either.
//
// Everything comes from installed packages (web-tree-sitter's runtime,
// tree-sitter-wasms' prebuilt grammars), found through Node's module
// resolution from this file, which works the same from the sources and
// from the esbuild bundle in dist/. A grammar that is not there is a setup
// problem to report, never something to download.

import { existsSync, readFileSync } from "node:fs";
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

// How V8 compiles the WebAssembly. Its flags are the process's, and they
// count both when a module is compiled and when a function of it is
// compiled later (lazily, on its first call), so:
// - Every module here is compiled at once (no lazy compilation) by the
//   baseline compiler only (--liftoff-only). Otherwise V8 would recompile
//   hot grammar functions with TurboFan in the background, and the process
//   could not exit until it had finished: seconds after a search. The CLI
//   sets --liftoff-only at start too; here it holds wherever the tools run.
// - The runtime alone may instead be compiled whole by TurboFan before its
//   first use ("optimized"): nothing is left to recompile later, so nothing
//   holds up the exit, and it parses and queries about a quarter faster,
//   for about 0.2 s of compilation: worth it for a search that parses every
//   file. A search worker then loads the same bytes, which V8 hands it
//   already compiled (its cache of compiled modules is keyed by their
//   bytes).
// - Otherwise a search worker compiles its own copy of the runtime with
//   tier-up ("tierUp"). Nothing else compiles anything lazily, so the short
//   moment the flags are changed cannot give tier-up to a grammar.
const BASELINE = ["--liftoff", "--liftoff-only", "--no-wasm-lazy-compilation"];
// What V8 does by default, which --liftoff-only turns off: functions that
// run hot are recompiled by TurboFan in the background.
const TIER_UP = ["--no-liftoff-only", "--wasm-tier-up", "--wasm-dynamic-tiering"];
// Every function by TurboFan, at once, and never recompiled.
const OPTIMIZED = ["--no-liftoff-only", "--no-liftoff", "--no-wasm-tier-up", "--no-wasm-dynamic-tiering", "--no-wasm-lazy-compilation"];

type RuntimeMode = "baseline" | "tierUp" | "optimized";

/**
 * The runtime's bytes with an empty custom section appended: the same
 * module to WebAssembly, but other bytes, so V8 compiles it anew instead of
 * reusing the copy it compiled for the main thread (its cache of compiled
 * modules is keyed by their bytes, whatever the flags were).
 */
function distinctCopy(wasm: string): Uint8Array {
  const name = Buffer.from("yuj-tier-up");
  return new Uint8Array(Buffer.concat([readFileSync(wasm), Buffer.from([0, name.length + 1, name.length]), name]));
}

async function loadRuntime(mode: RuntimeMode): Promise<TreeSitter> {
  const wasm = runtimeWasm();
  const ts = await import("web-tree-sitter");
  for (const flag of mode === "tierUp" ? TIER_UP : mode === "optimized" ? OPTIMIZED : BASELINE) setFlagsFromString(flag);
  try {
    await ts.Parser.init({ locateFile: () => wasm, ...(mode === "tierUp" ? { wasmBinary: distinctCopy(wasm) } : {}) });
  } finally {
    for (const flag of BASELINE) setFlagsFromString(flag);
  }
  return ts;
}

let runtimeMode: RuntimeMode = "baseline";

/**
 * Compile this thread's runtime (when it loads) with TurboFan tier-up: for
 * a search worker, which parses a large share of many files. The runtime
 * holds the hot code of parsing and querying (the grammars hold tables and
 * lexers), and once optimised it parses and queries about a quarter
 * faster. The worker is terminated when its search ends, which cancels a
 * recompilation still running; the threads that live as long as the
 * process keep baseline or optimized code, so none is left to hold up its
 * exit.
 */
export function tierUpThisThread(): void {
  if (!runtime) runtimeMode = "tierUp";
}

/**
 * Compile this thread's runtime whole with TurboFan when it loads, unless
 * it is loaded already; true when the runtime is (or will be) compiled so.
 */
export function optimizeThisThread(): boolean {
  if (!runtime) runtimeMode = "optimized";
  return runtimeMode === "optimized";
}

/** The tree-sitter module, initialised once per thread. */
function treeSitter(): Promise<TreeSitter> {
  runtime ??= loadRuntime(runtimeMode).catch((err: unknown) => {
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
