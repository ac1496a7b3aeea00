// The outline of one Python file, from its syntax tree:
//   # module surface: top-level imports, annotated names (`X: T`), `__all__`
//     and ALL_CAPS constants (`NAME = ...`);
//   # definitions: classes and functions, nested ones indented two spaces
//     per level, each decorator on its own line above, signatures rebuilt
//     from the parameters (names, annotations, *, *args, **kwargs; defaults
//     left out) and the first docstring line after `  # `.
// Every line starts `[L  12] `, its line number right-aligned in four places.

import type { Node } from "web-tree-sitter";
import { docstringFirstLine } from "./python-docstring.js";

export interface Outline {
  surface: string[];
  definitions: string[];
}

const tag = (node: Node) => `[L${String(node.startPosition.row + 1).padStart(4)}] `;

/** Source text on one line: blanks collapsed, none inside brackets, one after each comma. */
function tidy(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\s*,\s*/g, ", ")
    .replace(/([[(])\s+/g, "$1")
    .replace(/\s+([\])])/g, "$1")
    .replace(/, ([\])])/g, "$1")
    .trim();
}

const noSpaces = (text: string) => text.replace(/\s+/g, "");

function importName(node: Node): string {
  if (node.type === "aliased_import") {
    return `${noSpaces(node.childForFieldName("name")?.text ?? "")} as ${node.childForFieldName("alias")?.text ?? ""}`;
  }
  return noSpaces(node.text);
}

function importLine(node: Node): string {
  const names = node.childrenForFieldName("name").filter((n): n is Node => n !== null).map(importName);
  if (node.type === "import_statement") return `import ${names.join(", ")}`;
  const module = node.type === "future_import_statement" ? "__future__" : noSpaces(node.childForFieldName("module_name")?.text ?? "");
  const wildcard = node.namedChildren.some((c) => c?.type === "wildcard_import");
  return `from ${module} import ${wildcard ? "*" : names.join(", ")}`;
}

/** str.isupper() and longer than one character: Python's test for a constant's name. */
function isConstantName(name: string): boolean {
  return Array.from(name).length > 1 && name === name.toUpperCase() && name !== name.toLowerCase();
}

function surfaceLines(assignment: Node, out: string[], at: Node): void {
  const left = assignment.childForFieldName("left");
  const type = assignment.childForFieldName("type");
  const right = assignment.childForFieldName("right");
  if (left?.type !== "identifier") return;
  if (type) {
    out.push(`${tag(at)}${left.text}: ${tidy(type.text)}`);
    return;
  }
  if (left.text === "__all__" && right) out.push(`${tag(at)}__all__ = ${tidy(right.text).slice(0, 120)}`);
  else if (isConstantName(left.text)) out.push(`${tag(at)}${left.text} = ...`);
  // `A = B = 1` assigns both names.
  if (right?.type === "assignment") surfaceLines(right, out, at);
}

function parameter(node: Node): string | undefined {
  switch (node.type) {
    case "identifier":
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
    case "keyword_separator":
      return noSpaces(node.text);
    case "positional_separator":
      return undefined;
    case "default_parameter":
      return noSpaces(node.childForFieldName("name")?.text ?? "");
    case "typed_parameter":
    case "typed_default_parameter": {
      const name = node.childForFieldName("name") ?? node.namedChildren[0];
      const type = node.childForFieldName("type");
      return `${noSpaces(name?.text ?? "")}${type ? `: ${tidy(type.text)}` : ""}`;
    }
    default:
      return tidy(node.text);
  }
}

function functionSignature(fn: Node): string {
  const isAsync = fn.children[0]?.type === "async";
  const params = (fn.childForFieldName("parameters")?.namedChildren ?? [])
    .filter((n): n is Node => n !== null && n.type !== "comment")
    .map(parameter)
    .filter((p): p is string => p !== undefined);
  const ret = fn.childForFieldName("return_type");
  return `${isAsync ? "async def" : "def"} ${fn.childForFieldName("name")?.text ?? ""}(${params.join(", ")})${ret ? ` -> ${tidy(ret.text)}` : ""}`;
}

function classSignature(cls: Node): string {
  const name = cls.childForFieldName("name")?.text ?? "";
  const bases = (cls.childForFieldName("superclasses")?.namedChildren ?? [])
    .filter((n): n is Node => n !== null && n.type !== "keyword_argument" && n.type !== "dictionary_splat" && n.type !== "comment")
    .map((n) => tidy(n.text));
  return bases.length ? `class ${name}(${bases.join(", ")})` : `class ${name}`;
}

function walk(block: Node, depth: number, out: string[]): void {
  const indent = "  ".repeat(depth);
  for (const child of block.namedChildren) {
    if (!child) continue;
    let def = child;
    if (child.type === "decorated_definition") {
      for (const d of child.namedChildren) {
        if (d?.type !== "decorator") continue;
        const expr = d.namedChildren.find((n) => n?.type !== "comment") ?? d;
        out.push(`${tag(expr)}${indent}@${tidy(expr === d ? d.text.replace(/^@/, "") : expr.text)}`);
      }
      def = child.childForFieldName("definition") ?? child;
    }
    if (def.type !== "function_definition" && def.type !== "class_definition") continue;
    const signature = def.type === "class_definition" ? classSignature(def) : functionSignature(def);
    const body = def.childForFieldName("body");
    const doc = docstringFirstLine(body);
    out.push(`${tag(def)}${indent}${signature}${doc ? `  # ${doc}` : ""}`);
    if (body) walk(body, depth + 1, out);
  }
}

export function pythonOutline(root: Node): Outline {
  const surface: string[] = [];
  for (const child of root.namedChildren) {
    if (!child) continue;
    if (child.type === "import_statement" || child.type === "import_from_statement" || child.type === "future_import_statement") {
      surface.push(`${tag(child)}${importLine(child)}`);
    } else if (child.type === "expression_statement" && child.namedChildren[0]?.type === "assignment") {
      surfaceLines(child.namedChildren[0], surface, child);
    }
  }
  const definitions: string[] = [];
  walk(root, 0, definitions);
  return { surface, definitions };
}
