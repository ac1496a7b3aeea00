// Definitions and references of names in one source file, for the
// repository-wide list_definitions. A definition is a declaration that
// introduces a name (function, method, class, type, interface, enum, trait,
// module-level constant or variable…), found by one query per language with
// the name captured as @name and the declaration as @def. A reference is
// every other occurrence of the name as an identifier of the language's
// grammar (so comments and strings never count).

import type { Language, Node, Parser, Query } from "web-tree-sitter";
import type { LanguageName } from "./languages.js";
import { parseable } from "./match.js";

export interface TagRow {
  line: number;
  column: number;
  kind: "def" | "ref";
  name: string;
  signature: string;
}

const JS_DEFS = `
(function_declaration name: (identifier) @name) @def
(generator_function_declaration name: (identifier) @name) @def
(class_declaration name: (_) @name) @def
(method_definition name: (_) @name) @def
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (class)]) @def
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @def)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @def)))
`;

const TS_DEFS = `${JS_DEFS}
(interface_declaration name: (type_identifier) @name) @def
(type_alias_declaration name: (type_identifier) @name) @def
(enum_declaration name: (identifier) @name) @def
(abstract_class_declaration name: (type_identifier) @name) @def
(function_signature name: (identifier) @name) @def
(method_signature name: (_) @name) @def
(abstract_method_signature name: (_) @name) @def
(internal_module name: (identifier) @name) @def
`;

const DEFS: Record<LanguageName, string> = {
  python: `
(function_definition name: (identifier) @name) @def
(class_definition name: (identifier) @name) @def
(module (expression_statement (assignment left: (identifier) @name) @def))
`,
  javascript: JS_DEFS,
  typescript: TS_DEFS,
  tsx: TS_DEFS,
  go: `
(function_declaration name: (identifier) @name) @def
(method_declaration name: (field_identifier) @name) @def
(method_spec name: (field_identifier) @name) @def
(type_spec name: (type_identifier) @name) @def
(source_file (const_declaration (const_spec name: (identifier) @name) @def))
(source_file (var_declaration (var_spec name: (identifier) @name) @def))
`,
  rust: `
(function_item name: (identifier) @name) @def
(function_signature_item name: (identifier) @name) @def
(struct_item name: (type_identifier) @name) @def
(enum_item name: (type_identifier) @name) @def
(union_item name: (type_identifier) @name) @def
(trait_item name: (type_identifier) @name) @def
(type_item name: (type_identifier) @name) @def
(const_item name: (identifier) @name) @def
(static_item name: (identifier) @name) @def
(mod_item name: (identifier) @name) @def
(macro_definition name: (identifier) @name) @def
`,
  java: `
(class_declaration name: (identifier) @name) @def
(interface_declaration name: (identifier) @name) @def
(enum_declaration name: (identifier) @name) @def
(record_declaration name: (identifier) @name) @def
(annotation_type_declaration name: (identifier) @name) @def
(method_declaration name: (identifier) @name) @def
(constructor_declaration name: (identifier) @name) @def
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def
`,
};

const JS_IDENTIFIERS = ["identifier", "property_identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"];

const IDENTIFIERS: Record<LanguageName, string[]> = {
  python: ["identifier"],
  javascript: JS_IDENTIFIERS,
  typescript: [...JS_IDENTIFIERS, "type_identifier"],
  tsx: [...JS_IDENTIFIERS, "type_identifier"],
  go: ["identifier", "field_identifier", "type_identifier", "package_identifier"],
  rust: ["identifier", "field_identifier", "type_identifier"],
  java: ["identifier", "type_identifier"],
};

const quoted = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The two queries for a language; with a symbol, only nodes named exactly that. */
export function tagQueries(ts: { Query: typeof Query }, lang: Language, language: LanguageName, symbol: string | undefined): { defs: Query; refs: Query } {
  const only = (capture: string) => (symbol === undefined ? "" : ` (#eq? @${capture} ${quoted(symbol)})`);
  const defs = DEFS[language]
    .trim()
    .split("\n")
    .map((pattern) => (symbol === undefined ? pattern : `(${pattern}${only("name")})`))
    .join("\n");
  const refs = `([${IDENTIFIERS[language].map((t) => `(${t})`).join(" ")}] @name${only("name")})`;
  return { defs: new ts.Query(lang, defs), refs: new ts.Query(lang, refs) };
}

const MAX_SIGNATURE = 120;

function oneLine(text: string): string {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > MAX_SIGNATURE ? `${s.slice(0, MAX_SIGNATURE - 1)}…` : s;
}

const DECLARATORS = new Set(["variable_declarator", "const_spec", "var_spec", "type_spec"]);

/**
 * A declaration's header: up to its body, else its first line. A lone
 * declarator is shown with its declaration's keyword (`const x = 1`, `type T
 * struct{…}`); one of a group stands alone.
 */
function signatureOf(def: Node, text: string): string {
  let node = def;
  const parent = def.parent;
  if (parent && DECLARATORS.has(def.type) && parent.namedChildren.filter((c) => c?.type === def.type).length === 1) node = parent;
  const body = node.childForFieldName("body");
  const end = body && body.startIndex > node.startIndex ? body.startIndex : node.endIndex;
  let header = text.slice(node.startIndex, end);
  if (!body) header = header.split("\n")[0]!;
  return oneLine(header).replace(/\s*[{:]$/, "");
}

function lineText(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const nl = text.indexOf("\n", index);
  return text.slice(start, nl < 0 ? text.length : nl);
}

/** Every definition and reference in the text; columns are UTF-16 (only used to order rows). */
export function extractTags(parser: Parser, queries: { defs: Query; refs: Query }, text: string): TagRow[] {
  const tree = parser.parse(parseable(text));
  if (!tree) return [];
  try {
    const rows: TagRow[] = [];
    const defNames = new Set<number>();
    for (const m of queries.defs.matches(tree.rootNode)) {
      const name = m.captures.find((c) => c.name === "name")?.node;
      const def = m.captures.find((c) => c.name === "def")?.node;
      if (!name || !def || defNames.has(name.startIndex)) continue;
      defNames.add(name.startIndex);
      rows.push({ line: name.startPosition.row + 1, column: name.startPosition.column, kind: "def", name: name.text, signature: signatureOf(def, text) });
    }
    for (const c of queries.refs.captures(tree.rootNode)) {
      if (defNames.has(c.node.startIndex)) continue;
      rows.push({ line: c.node.startPosition.row + 1, column: c.node.startPosition.column, kind: "ref", name: c.node.text, signature: oneLine(lineText(text, c.node.startIndex)) });
    }
    rows.sort((a, b) => a.line - b.line || a.column - b.column || (a.kind === b.kind ? 0 : a.kind === "def" ? -1 : 1));
    return rows;
  } finally {
    tree.delete();
  }
}
