// The tasks of a measurement run: RUN_DIR/repos/* that hold a prompt.txt
// (sorted by name), or the one task named with --task. Each task's results go
// to RUN_DIR/results/<name>/, outside the task's repository, so nothing yuj
// writes there shows up in the model's `git status`.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { MeasureOptions } from "../args.js";
import { FatalError } from "../errors.js";

const PROMPT_FILE = "prompt.txt";

export interface MeasureTask {
  /** The folder's name: the task's key in the results and the summary. */
  name: string;
  /** The task's repository: the run's working directory. */
  dir: string;
  prompt: string;
  /** Where the prompt came from, for --dry-run. */
  promptSource: string;
  /** RUN_DIR/results/<name>: checkpoint.json, metrics.json, savings.jsonl, each session's event stream. */
  results: string;
}

export function findTasks(runDir: string, opts: MeasureOptions, cwd: string): MeasureTask[] {
  if (!isDir(runDir)) throw new FatalError(`yuj measure: the run directory ${runDir} does not exist or is not a directory`);
  const override = promptOverride(opts, cwd);
  const one = opts.task ?? opts.resume;
  if (one !== undefined) {
    const dir = resolve(cwd, one);
    if (!isDir(dir)) throw new FatalError(`yuj measure: the task ${dir} does not exist or is not a directory`);
    return [task(runDir, dir, override)];
  }
  const repos = join(runDir, "repos");
  if (!isDir(repos)) {
    throw new FatalError(`yuj measure: ${repos} does not exist; put each task's repository there with its ${PROMPT_FILE}, or name one with --task PATH`);
  }
  const dirs = readdirSync(repos)
    .sort()
    .map((name) => join(repos, name))
    .filter((dir) => isDir(dir) && existsSync(join(dir, PROMPT_FILE)));
  if (dirs.length === 0) throw new FatalError(`yuj measure: no task in ${repos}: none of its folders holds a ${PROMPT_FILE}`);
  return dirs.map((dir) => task(runDir, dir, override));
}

function task(runDir: string, dir: string, override: { text: string; source: string } | undefined): MeasureTask {
  const name = basename(dir);
  const results = join(runDir, "results", name);
  if (override) return { name, dir, prompt: override.text, promptSource: override.source, results };
  const file = join(dir, PROMPT_FILE);
  if (!existsSync(file)) {
    throw new FatalError(`yuj measure: the task ${dir} has no ${PROMPT_FILE}; add one or give the prompt with --prompt-text or --prompt-file`);
  }
  return { name, dir, prompt: nonEmptyPrompt(readFileSync(file, "utf8"), file), promptSource: file, results };
}

function promptOverride(opts: MeasureOptions, cwd: string): { text: string; source: string } | undefined {
  if (opts.promptText !== undefined) return { text: opts.promptText, source: "--prompt-text" };
  if (opts.promptFile === undefined) return undefined;
  const file = resolve(cwd, opts.promptFile);
  return { text: nonEmptyPrompt(readText(file, "--prompt-file"), file), source: file };
}

/** A file the command line names, or an error saying which and why. */
export function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new FatalError(`yuj measure: ${flag} ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function nonEmptyPrompt(text: string, file: string): string {
  if (!text.trim()) throw new FatalError(`yuj measure: the prompt in ${file} is empty`);
  return text;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
