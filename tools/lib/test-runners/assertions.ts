// The source around the lines a failing test run points at, so the model
// sees the failing code in the same result as the verdict. Frames are found
// in the runner's output in the forms the runners print them:
//
//   tests/test_calc.py:12: in test_add        pytest --tb=short
//   tests/test_calc.py:12: AssertionError     (a frame with its error)
//       calc_test.go:9: add(2, 2) = 4, want 5 go test
//   panicked at src/lib.rs:10:9:              cargo test
//   at Object.<anonymous> (sum.test.js:5:17)  jest (stack lines)
//    ❯ sum.test.ts:5:17                        vitest
//
// Each distinct file and line gives one block, in the order of the output,
// up to a limit; files outside the task directory, in node_modules, or that
// cannot be read are passed over.

import type { FileSystem } from "../../../core/services.js";
import { resolveInCwd, type ResolveOptions } from "../paths.js";
import { xmlEscape } from "../search-envelope.js";

const SOURCE = String.raw`[\w\-./@+]+\.(?:py|go|rs|[cm]?jsx?|[cm]?tsx?)`;

const FRAME_PATTERNS: readonly RegExp[] = [
  // pytest: the frame line alone, or followed by "in name" / the error's name.
  new RegExp(String.raw`^(${SOURCE}):(\d+):(?:\s+in\s+\S+|\s+[A-Z]\w*(?:Error|Exception|Failed)\b.*)?\s*$`, "gm"),
  // go test: an indented t.Error/t.Fatal line.
  new RegExp(String.raw`^\s+([\w\-./@+]+\.go):(\d+): `, "gm"),
  // cargo test: a panic's location.
  new RegExp(String.raw`panicked at (${SOURCE}):(\d+):\d+`, "gm"),
  // jest and node stack lines: (path:line:col) or "at path:line:col".
  new RegExp(String.raw`\bat (?:.*? \()?(?:file://)?(${SOURCE}):(\d+):\d+\)?\s*$`, "gm"),
  // vitest: the ❯ pointer under a failed assertion.
  new RegExp(String.raw`❯ (${SOURCE}):(\d+):\d+`, "gm"),
];

export interface AssertionContextOptions {
  /** Lines shown before and after the cited one. */
  radius: number;
  /** Blocks at most. */
  max: number;
  /** What [sandbox].unreadable_paths hides: such a file's lines are never quoted. */
  access?: Pick<ResolveOptions, "hidden" | "hiddenError">;
}

interface Frame {
  file: string;
  line: number;
  at: number;
}

/** The frames in the output, in order of appearance, each file and line once. */
export function findFrames(output: string): Frame[] {
  const frames: Frame[] = [];
  for (const pattern of FRAME_PATTERNS) {
    for (const m of output.matchAll(pattern)) {
      frames.push({ file: m[1]!, line: Number(m[2]), at: m.index ?? 0 });
    }
  }
  frames.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return frames.filter((f) => {
    const key = `${f.file}:${f.line}`;
    if (seen.has(key) || f.line < 1 || /(^|\/)node_modules\//.test(f.file)) return false;
    seen.add(key);
    return true;
  });
}

/** `<failing-assertion file line radius>` blocks for the first frames that name readable project files. */
export async function failingAssertionBlocks(
  output: string,
  cwd: string,
  fs: FileSystem,
  opts: AssertionContextOptions,
): Promise<string[]> {
  const blocks: string[] = [];
  if (opts.max <= 0) return blocks;
  for (const frame of findFrames(output)) {
    if (blocks.length >= opts.max) break;
    const where = await resolveInCwd(fs, cwd, frame.file, opts.access);
    if (!where.ok) continue;
    let lines: string[];
    try {
      lines = (await fs.readFile(where.abs, "utf8")).split(/\r?\n/);
    } catch {
      continue;
    }
    if (lines.at(-1) === "") lines.pop();
    if (frame.line > lines.length) continue;
    const from = Math.max(1, frame.line - opts.radius);
    const to = Math.min(lines.length, frame.line + opts.radius);
    const body: string[] = [];
    for (let n = from; n <= to; n++) {
      body.push(`${n === frame.line ? ">" : " "} ${String(n).padStart(5)}  ${lines[n - 1]}`);
    }
    blocks.push(
      `<failing-assertion file="${xmlEscape(where.display)}" line="${frame.line}" radius="${opts.radius}">\n${body.join("\n")}\n</failing-assertion>`,
    );
  }
  return blocks;
}
