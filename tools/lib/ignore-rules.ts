// Just enough of ripgrep's default filtering for the pure-JS grep fallback to
// see the same files rg would: .gitignore (inside a git repository), .ignore
// and .rgignore files, each scoped to its directory, last matching rule wins.
// Global excludes and .git/info/exclude are not read.

import * as path from "node:path";
import { minimatch } from "minimatch";
import type { FileSystem } from "../../core/services.js";

interface Rule {
  base: string;
  glob: string;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path relative to `base` rather than the bare name. */
  anchored: boolean;
}

const MATCH_OPTS = { dot: true, nobrace: true, noext: true, nocomment: true, nonegate: true };

function parseRules(base: string, text: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    if (line.startsWith("\\")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line) rules.push({ base, glob: line, negate, dirOnly, anchored });
  }
  return rules;
}

export class IgnoreRules {
  private constructor(
    private readonly fs: FileSystem,
    private readonly useGitignore: boolean,
    private readonly rules: readonly Rule[],
  ) {}

  /**
   * Rules that apply at `dir`: those of every ancestor up to the repository
   * root. `gitignoreAnywhere`: outside a repository the directory's own
   * .gitignore counts too (Chord's search tools read it without git).
   */
  static async forRoot(fs: FileSystem, dir: string, opts: { gitignoreAnywhere?: boolean } = {}): Promise<IgnoreRules> {
    const chain: string[] = [];
    let useGitignore = false;
    for (let cur = dir; ; cur = path.dirname(cur)) {
      chain.unshift(cur);
      const hasGit = await fs.stat(path.join(cur, ".git")).then(
        () => true,
        () => false,
      );
      if (hasGit) {
        useGitignore = true;
        break;
      }
      if (path.dirname(cur) === cur) break;
    }
    // Outside a repository only the directory itself contributes .ignore/.rgignore.
    let rules = new IgnoreRules(fs, useGitignore || opts.gitignoreAnywhere === true, []);
    for (const d of useGitignore ? chain : [dir]) rules = await rules.enter(d);
    return rules;
  }

  /** The rules in force inside `dir`, adding its own ignore files. */
  async enter(dir: string): Promise<IgnoreRules> {
    const names = this.useGitignore ? [".gitignore", ".ignore", ".rgignore"] : [".ignore", ".rgignore"];
    const added: Rule[] = [];
    for (const name of names) {
      try {
        added.push(...parseRules(dir, await this.fs.readFile(path.join(dir, name), "utf8")));
      } catch {
        /* no such file */
      }
    }
    return added.length ? new IgnoreRules(this.fs, this.useGitignore, [...this.rules, ...added]) : this;
  }

  ignores(abs: string, isDir: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      const rel = path.relative(rule.base, abs).split(path.sep).join("/");
      if (rel.startsWith("..")) continue;
      const subject = rule.anchored ? rel : path.basename(abs);
      if (minimatch(subject, rule.glob, MATCH_OPTS)) ignored = !rule.negate;
    }
    return ignored;
  }
}
