// The tool a call meant when its name is none of the active ones: models
// write `read_file`, `Read` or `gerp` for read and grep. The unknown-tool
// error names it ("Did you mean 'read'?"), so the retry needs no guess.

/**
 * The tool a misnamed call most likely meant: the same name in another case
 * or spelling (`Read`, `read-file`), a name built around one tool's name
 * (`read_file`, `grep_files`, `file_read`), or one letter or two off (`gerp`).
 */
export function closestTool(name: string, names: readonly string[]): string | undefined {
  const flat = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  const same = names.find((n) => flat(n) === flat(name));
  if (same) return same;
  const words = name.toLowerCase().split(/[-_\s.]+/);
  // The same words in another order or number (`todo_write`, `TodoWrite` for `write_todos`):
  // before the rule below, which would take the one word `write` for a tool of its own.
  const bag = (ws: readonly string[]) => ws.filter(Boolean).map((w) => w.replace(/s$/, "")).sort().join(" ");
  const reordered = names.find((n) => n.includes("_") && bag(n.split("_")) === bag(splitWords(name)));
  if (reordered) return reordered;
  const around = names.filter((n) => !n.includes("_") && words.includes(n)).sort((a, b) => b.length - a.length)[0];
  if (around) return around;
  if (name.length < 4) return undefined;
  return names.find((n) => editDistance(n, name.toLowerCase()) <= 2 && n.length >= 4);
}

/** `TodoWrite`, `todo-write`, `todo_write` → ["todo", "write"]. */
function splitWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[-_\s.]+/);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
