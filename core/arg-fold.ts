// An older argument form in which one parameter's value belongs inside
// another's text (Chord's single-file apply_patch: `path` beside bare hunks),
// folded into today's shape. The fold itself is the tool's data (ArgFold),
// so this knows nothing of what the text means.

import type { ArgFold } from "./tool-types.js";

/** ArgFold applied, or undefined when the arguments are not of its older form. */
export function foldArgs(args: Record<string, unknown>, fold: ArgFold): { args: Record<string, unknown>; note: string } | undefined {
  const { [fold.from]: from, [fold.into]: into, ...rest } = args;
  // A line break in `from` could write lines of its own into the template.
  if (typeof from !== "string" || from.trim() === "" || /[\r\n]/.test(from) || typeof into !== "string") return undefined;
  const lines = into.split("\n");
  const first = lines.find((l) => l.trim() !== "") ?? "";
  if (!new RegExp(fold.when).test(first)) return undefined;
  if (fold.unless !== undefined && lines.some((l) => new RegExp(fold.unless!).test(l))) return undefined;
  const name = from.trim();
  const body = dropLast(into.replace(/(\r?\n)+$/, ""), fold.drop);
  // A function replacement: `$` in the model's text is never a pattern.
  const text = fold.template.replace(/\{(from|into)\}/g, (_, k: string) => (k === "from" ? name : body));
  return { args: { ...rest, [fold.into]: text }, note: fold.note.replace(/\{from\}/g, () => name) };
}

/** `text` without its last line when that line matches `drop`. */
function dropLast(text: string, drop: string | undefined): string {
  if (drop === undefined) return text;
  const cut = text.lastIndexOf("\n");
  const last = text.slice(cut + 1);
  return new RegExp(drop).test(last) ? text.slice(0, Math.max(cut, 0)).replace(/(\r?\n)+$/, "") : text;
}
