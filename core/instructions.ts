// The project's own instructions for agents: AGENTS.md (and CLAUDE.md) from
// the git root down to the cwd, outermost first so nearer files read last and
// can refine what the outer ones say.

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** An instruction file larger than this is cut, so one file cannot flood the prompt. */
const MAX_FILE_CHARS = 32 * 1024;

export interface InstructionFile {
  path: string;
  /** Path relative to the cwd, for display and for the prompt. */
  shown: string;
  text: string;
}

/** The directory holding `.git` at or above `cwd`, if any. */
function findGitRoot(cwd: string): string | undefined {
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export function findInstructions(cwd: string): InstructionFile[] {
  const root = findGitRoot(cwd) ?? cwd;
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  const found: InstructionFile[] = [];
  for (const dir of dirs) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(dir, name);
      if (!isFile(path)) continue;
      let text = readFileSync(path, "utf8");
      if (text.length > MAX_FILE_CHARS) text = `${text.slice(0, MAX_FILE_CHARS)}\n[… cut at ${MAX_FILE_CHARS} chars]`;
      found.push({ path, shown: relative(cwd, path) || name, text: text.trim() });
    }
  }
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
