// Finding one cell's source inside a notebook's JSON text, and writing a new
// source value in the file's own style. A notebook edit must
// change the bytes of that one JSON value and nothing else, so nothing here
// re-serialises the document: the parser only reports offsets, and the
// caller splices the new value over the old one. Pure: text in, text out.

import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";

export type CellSelector = { index: number } | { id: string };

interface NotebookCell {
  index: number;
  id: string | undefined;
  cellType: string;
  /** The source value: a string node, or an array node of string nodes. */
  node: Node;
  /** The source as Jupyter reads it (an array's strings joined). */
  source: string;
}

export type CellLookup = { ok: true; cell: NotebookCell } | { ok: false; error: string };

/** `cell 3 (id "a1b2")`: how results and errors name a cell. */
export const cellLabel = (cell: { index: number; id: string | undefined }): string =>
  cell.id === undefined ? `cell ${cell.index}` : `cell ${cell.index} (id ${JSON.stringify(cell.id)})`;

const NOT_A_NOTEBOOK = "notebook_edit edits Jupyter notebooks (nbformat 4); use edit for other JSON files.";

/** The value node of `key` in an object node; "twice" when the key repeats (its meaning is then unclear). */
function prop(obj: Node, key: string): Node | "twice" | undefined {
  let found: Node | undefined;
  for (const p of obj.children ?? []) {
    if (p.children?.[0]?.value !== key) continue;
    if (found) return "twice";
    found = p.children[1];
  }
  return found;
}

/** 1-based line and column of a UTF-16 offset, for parse errors. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - (before.lastIndexOf("\n") + 1) + 1}`;
}

/**
 * Parses the notebook and picks the selected code or markdown cell. `text` is
 * the whole decoded file, BOM included, so returned offsets index it directly.
 */
export function findCell(text: string, selector: CellSelector, shown: string): CellLookup {
  const invalid = (why: string, todo = NOT_A_NOTEBOOK) => ({ ok: false as const, error: `ERROR: ${shown} is not a valid notebook: ${why}. ${todo}` });
  const errors: ParseError[] = [];
  // jsonc-parser reports a BOM as an invalid symbol; a space of the same
  // length keeps every offset pointing at the same character of `text`.
  const root = parseTree(text.replace(/^\ufeff/, " "), errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    const e = errors[0];
    const where = e ? ` at ${lineCol(text, e.offset)} (${printParseErrorCode(e.error)})` : "";
    return invalid(`it is not valid JSON${where}`, "Read the file and repair it with edit or write first.");
  }
  if (root.type !== "object") return invalid("the top level is not a JSON object");

  const nbformat = prop(root, "nbformat");
  if (nbformat === "twice") return invalid(`"nbformat" appears twice`);
  if (nbformat?.type !== "number") return invalid(`it has no numeric "nbformat" field`);
  if ((nbformat.value as number) < 4) {
    return {
      ok: false,
      error:
        `ERROR: ${shown} is an nbformat ${nbformat.value} notebook; notebook_edit edits only nbformat 4 and later. ` +
        "Convert it with `jupyter nbconvert --to notebook`, or use edit on its JSON.",
    };
  }
  const cells = prop(root, "cells");
  if (cells === "twice") return invalid(`"cells" appears twice`);
  if (cells?.type !== "array") return invalid(`it has no "cells" array`);
  const all = cells.children ?? [];

  let index: number;
  if ("index" in selector) {
    index = selector.index;
    if (!Number.isInteger(index) || index < 0 || index >= all.length) {
      const has = all.length === 0 ? "it has no cells" : `it has ${all.length} cells, cell_index 0 to ${all.length - 1}`;
      return { ok: false, error: `ERROR: ${shown} has no cell ${index}: cell_index ${index} is outside the notebook cell range (${has}). Read the notebook again to find the cell.` };
    }
  } else {
    const matches: number[] = [];
    let anyId = false;
    all.forEach((c, i) => {
      const id = c.type === "object" ? prop(c, "id") : undefined;
      if (id === undefined || id === "twice") return;
      anyId = true;
      if (id.value === selector.id) matches.push(i);
    });
    if (matches.length === 0) {
      const hint = anyId ? "Read the notebook again and copy the cell's id, or select it with cell_index." : "Its cells have no ids (nbformat before 4.5): select the cell with cell_index.";
      return { ok: false, error: `ERROR: cell id ${JSON.stringify(selector.id)} was not found in ${shown}. ${hint}` };
    }
    if (matches.length > 1) {
      return {
        ok: false,
        error:
          `ERROR: ambiguous duplicate cell id ${JSON.stringify(selector.id)} in ${shown} (cells ${matches.join(", ")}). ` +
          "Select the cell with cell_index instead.",
      };
    }
    index = matches[0]!;
  }

  const cell = all[index]!;
  if (cell.type !== "object") return invalid(`cell ${index} is not a JSON object`);
  const idNode = prop(cell, "id");
  const typeNode = prop(cell, "cell_type");
  const sourceNode = prop(cell, "source");
  if (idNode === "twice" || typeNode === "twice" || sourceNode === "twice") {
    return invalid(`cell ${index} has a repeated key`);
  }
  const id = idNode?.type === "string" ? (idNode.value as string) : undefined;
  const label = cellLabel({ index, id });
  if (typeNode?.type !== "string") return invalid(`${label} has no "cell_type"`);
  const cellType = typeNode.value as string;
  if (cellType !== "code" && cellType !== "markdown") {
    return {
      ok: false,
      error:
        `ERROR: ${label} of ${shown} is a ${cellType} cell; notebook_edit edits only code and markdown cells. ` +
        "Use edit on the notebook's JSON for other cells.",
    };
  }
  if (sourceNode === undefined) return invalid(`${label} has no "source"`, "Repair the cell with edit first.");
  let source: string;
  if (sourceNode.type === "string") source = sourceNode.value as string;
  else if (sourceNode.type === "array" && (sourceNode.children ?? []).every((c) => c.type === "string")) {
    source = (sourceNode.children ?? []).map((c) => c.value as string).join("");
  } else return invalid(`the "source" of ${label} is neither a string nor an array of strings`, "Repair the cell with edit first.");
  return { ok: true, cell: { index, id, cellType, node: sourceNode, source } };
}

// Python's str.splitlines(keepends=True), which nbformat applies to every
// source before writing: lines end after \n, \r\n, \r and the other breaks
// Python recognises, and joining the pieces gives back the exact source.
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;

function jupyterLines(source: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of source.matchAll(PY_LINE_BREAK)) {
    const end = m.index + m[0].length;
    out.push(source.slice(start, end));
    start = end;
  }
  if (start < source.length) out.push(source.slice(start));
  return out;
}

/**
 * True when the file escapes every non-ASCII character (Python's default
 * ensure_ascii): then new strings are escaped the same way. Jupyter itself
 * writes them as they are.
 */
function escapesNonAscii(text: string): boolean {
  if (/[^\x00-\x7e]/.test(text.replace(/^\ufeff/, ""))) return false;
  for (const m of text.matchAll(/(?<!\\)(?:\\\\)*\\u([0-9a-fA-F]{4})/g)) {
    if (parseInt(m[1]!, 16) >= 0x80) return true;
  }
  return false;
}

/** A JSON string as Python's json.dumps writes it (same escapes as JSON.stringify, lowercase hex). */
function jsonString(s: string, ascii: boolean): string {
  const json = JSON.stringify(s);
  return ascii ? json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}

/** The whitespace before `offset` on its line, or undefined when something else precedes it there. */
function lineIndent(text: string, offset: number): string | undefined {
  const indent = text.slice(text.lastIndexOf("\n", offset - 1) + 1, offset).replace(/^\ufeff/, "");
  return /^[ \t]*$/.test(indent) ? indent : undefined;
}

/** One level of the file's indentation: the first line that starts with whitespace shows it. */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? " ";
}

/**
 * The new source value's JSON text, shaped like the value it replaces: a
 * string stays a string; an array keeps its element layout (the whitespace
 * after `[`, between elements and before `]`), or, when the old array was
 * empty, the layout Jupyter's writer gives one at this depth of this file.
 */
export function renderSource(text: string, node: Node, source: string): string {
  const ascii = escapesNonAscii(text);
  if (node.type === "string") return jsonString(source, ascii);
  const items = jupyterLines(source).map((l) => jsonString(l, ascii));
  if (items.length === 0) return "[]";

  const kids = node.children ?? [];
  const end = node.offset + node.length - 1; // the closing bracket
  let lead: string;
  let sep: string;
  let tail: string;
  if (kids.length > 0) {
    const first = kids[0]!;
    const last = kids[kids.length - 1]!;
    lead = text.slice(node.offset + 1, first.offset);
    tail = text.slice(last.offset + last.length, end);
    sep = kids.length > 1 ? text.slice(first.offset + first.length, kids[1]!.offset) : lead.includes("\n") ? `,${lead}` : ", ";
  } else {
    // `"source": []` says nothing about layout: indent one level deeper than
    // the "source" key's line, as a pretty-printed file would.
    const keyIndent = lineIndent(text, node.parent?.offset ?? node.offset);
    if (keyIndent === undefined) {
      lead = "";
      tail = "";
      sep = ", ";
    } else {
      const eol = text.includes("\r\n") ? "\r\n" : "\n";
      lead = `${eol}${keyIndent}${indentUnit(text)}`;
      tail = `${eol}${keyIndent}`;
      sep = `,${lead}`;
    }
  }
  return `[${lead}${items.join(sep)}${tail}]`;
}

const CONTEXT_LINES = 2;

/** A small unified diff of one cell's source, numbered by the cell's own lines (view only). */
export function cellDiff(before: string, after: string): string {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tailLen = 0;
  while (tailLen < a.length - head && tailLen < b.length - head && a[a.length - 1 - tailLen] === b[b.length - 1 - tailLen]) {
    tailLen++;
  }
  const from = Math.max(0, head - CONTEXT_LINES);
  const ctxAfter = a.slice(a.length - tailLen, Math.min(a.length, a.length - tailLen + CONTEXT_LINES));
  const removed = a.slice(head, a.length - tailLen);
  const added = b.slice(head, b.length - tailLen);
  const ctxBefore = a.slice(from, head);
  const oldCount = ctxBefore.length + removed.length + ctxAfter.length;
  const newCount = ctxBefore.length + added.length + ctxAfter.length;
  // Unified diff convention: an empty side starts at the line before it.
  const start = (count: number) => (count === 0 ? from : from + 1);
  return [
    `@@ -${start(oldCount)},${oldCount} +${start(newCount)},${newCount} @@`,
    ...ctxBefore.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...ctxAfter.map((l) => ` ${l}`),
  ].join("\n");
}
