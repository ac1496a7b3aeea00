// The languages the structural tools parse, by the name the model passes and
// by file extension. Pure data: loading a grammar is grammars.ts's job.

const LANGUAGES = ["python", "javascript", "typescript", "tsx", "go", "rust", "java"] as const;

export type LanguageName = (typeof LANGUAGES)[number];

/** Each language's grammar file in tree-sitter-wasms, and the files written in it. */
const TABLE: Record<LanguageName, { grammar: string; extensions: readonly string[] }> = {
  python: { grammar: "python", extensions: [".py", ".pyi"] },
  javascript: { grammar: "javascript", extensions: [".js", ".mjs", ".cjs", ".jsx"] },
  typescript: { grammar: "typescript", extensions: [".ts", ".mts", ".cts"] },
  tsx: { grammar: "tsx", extensions: [".tsx"] },
  go: { grammar: "go", extensions: [".go"] },
  rust: { grammar: "rust", extensions: [".rs"] },
  java: { grammar: "java", extensions: [".java"] },
};

export function isLanguage(name: string): name is LanguageName {
  return (LANGUAGES as readonly string[]).includes(name);
}

export function grammarFile(language: LanguageName): string {
  return `tree-sitter-${TABLE[language].grammar}.wasm`;
}

export function extensionsOf(language: LanguageName): readonly string[] {
  return TABLE[language].extensions;
}

/** The language a file is written in, from its extension; undefined for any other file. */
export function languageOfPath(path: string): LanguageName | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  const ext = path.slice(dot).toLowerCase();
  return LANGUAGES.find((l) => TABLE[l].extensions.includes(ext));
}

export const unsupportedLanguageText = (given: string): string =>
  `ERROR: unsupported language '${given}': use one of ${LANGUAGES.join(", ")} ` +
  "(tsx for .tsx files, typescript for .ts files)";

/** One grammar family: a JavaScript file parses as TypeScript or TSX too, so those are not mismatches. */
const FAMILY: Record<LanguageName, string> = {
  python: "python",
  javascript: "js",
  typescript: "js",
  tsx: "js",
  go: "go",
  rust: "rust",
  java: "java",
};

/** The refusal for a file whose extension names another language than the one given, else undefined. */
export function languageMismatchText(path: string, given: LanguageName): string | undefined {
  const own = languageOfPath(path);
  if (own === undefined || FAMILY[own] === FAMILY[given]) return undefined;
  return `ERROR: language mismatch: ${path} is a ${own} file, not ${given}; pass language "${own}" (or a file written in ${given})`;
}
