// The first line of a Python docstring as Python itself reports it: the
// literal's value (escapes decoded unless it is raw), cleaned the way
// inspect.cleandoc cleans it (tabs expanded, the first line's leading blanks
// and the common indentation of the others removed, blank lines at either
// end dropped), then the first line of what remains, stripped.

import type { Node } from "web-tree-sitter";

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\", "'": "'", '"': '"', n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v",
};

function decodeEscapes(body: string): string {
  return body.replace(/\\(\n|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/gs, (whole, e: string) => {
    if (e === "\n") return "";
    if (SIMPLE_ESCAPES[e] !== undefined) return SIMPLE_ESCAPES[e]!;
    if (/^[0-7]+$/.test(e)) return String.fromCodePoint(parseInt(e, 8));
    if (/^[xuU]/.test(e) && e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    return whole; // unknown escapes, and \N{…}, stay as written
  });
}

/** The value of one string literal node, or undefined when it is no plain str (f-string, bytes). */
function literalValue(node: Node): string | undefined {
  const text = node.text;
  const m = /^([A-Za-z]*)('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  const prefix = m[1]!.toLowerCase();
  if (prefix.includes("f") || prefix.includes("b")) return undefined;
  const quote = m[2]!;
  if (!text.endsWith(quote) || text.length < m[0].length + quote.length) return undefined;
  const body = text.slice(m[0].length, text.length - quote.length);
  return prefix.includes("r") ? body : decodeEscapes(body);
}

/** A string or concatenated_string node's value. */
function stringValue(node: Node): string | undefined {
  if (node.type === "string") return literalValue(node);
  if (node.type !== "concatenated_string") return undefined;
  let value = "";
  for (const part of node.namedChildren) {
    const v = part ? literalValue(part) : undefined;
    if (v === undefined) return undefined;
    value += v;
  }
  return value;
}

function expandTabs(line: string): string {
  let out = "";
  for (const ch of line) {
    if (ch === "\t") out += " ".repeat(8 - (out.length % 8));
    else if (ch === "\n" || ch === "\r") out = "";
    else out += ch;
  }
  return out;
}

/** inspect.cleandoc. */
function cleandoc(doc: string): string {
  const lines = doc.split("\n").map((l) => (l.includes("\t") ? expandTabs(l) : l));
  let margin = Infinity;
  for (const line of lines.slice(1)) {
    const content = line.replace(/^\s+/, "").length;
    if (content) margin = Math.min(margin, line.length - content);
  }
  lines[0] = lines[0]!.replace(/^\s+/, "");
  if (margin < Infinity) for (let i = 1; i < lines.length; i++) lines[i] = lines[i]!.slice(margin);
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  while (lines.length && !lines[0]) lines.shift();
  return lines.join("\n");
}

/** The docstring of a class or function body block: its first line, or "" when there is none. */
export function docstringFirstLine(body: Node | null): string {
  const first = body?.namedChildren[0];
  if (!first || first.type !== "expression_statement" || first.namedChildCount !== 1) return "";
  const literal = first.namedChildren[0];
  const value = literal ? stringValue(literal) : undefined;
  if (!value) return "";
  const doc = cleandoc(value).trim();
  if (!doc) return "";
  const line = doc.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/)[0]!;
  return Array.from(line).slice(0, 80).join("");
}
