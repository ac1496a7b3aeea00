// Python tracebacks of deep recursion repeat one frame (its `File …` line and
// the source line under it) many times over. A run of identical frames is
// shown once, followed by how many times it occurred; frames that differ in
// any line, or have other output between them, are left as they are.

const FRAME_HEAD = /^\s*File ".*", line \d+, in \S.*$/;

/** The frame starting at line i: its head and, when there is one, its source line. */
function frameAt(lines: readonly string[], i: number): number {
  if (!FRAME_HEAD.test(lines[i]!)) return 0;
  const next = lines[i + 1];
  const hasSource = next !== undefined && next.trim() !== "" && !FRAME_HEAD.test(next) && /^\s/.test(next);
  return hasSource ? 2 : 1;
}

const sameFrame = (lines: readonly string[], a: number, b: number, size: number): boolean => {
  for (let k = 0; k < size; k++) if (lines[a + k] !== lines[b + k]) return false;
  return true;
};

/** Consecutive identical traceback frames become one frame and `  [the frame above ×N]`. */
export function foldTracebackFrames(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const size = frameAt(lines, i);
    if (size === 0) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let run = 1;
    while (frameAt(lines, i + run * size) === size && sameFrame(lines, i, i + run * size, size)) run++;
    out.push(...lines.slice(i, i + size));
    if (run >= 2) out.push(`${/^\s*/.exec(lines[i]!)![0]}[the frame above ×${run}]`);
    i += run * size;
  }
  return out.join("\n");
}
