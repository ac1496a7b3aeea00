// /init: an AGENTS.md skeleton from what the repository shows — its
// languages (by the files tracked), and the build and test commands its
// package.json scripts, Makefile targets, pyproject.toml, Cargo.toml or
// go.mod imply. The facts are read here; the text is made by a pure
// function. An existing AGENTS.md is never replaced without `overwrite`.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteSync } from "../core/atomic-write.js";

export interface RepoFacts {
  name: string;
  /** Languages by how many files show them, most first. */
  languages: string[];
  /** [what, command] */
  commands: Array<[string, string]>;
}

const LANGUAGE_OF: Record<string, string> = {
  ".ts": "TypeScript", ".tsx": "TypeScript", ".js": "JavaScript", ".mjs": "JavaScript", ".jsx": "JavaScript",
  ".py": "Python", ".rs": "Rust", ".go": "Go", ".java": "Java", ".kt": "Kotlin", ".rb": "Ruby",
  ".c": "C", ".h": "C", ".cpp": "C++", ".cc": "C++", ".cs": "C#", ".php": "PHP", ".swift": "Swift", ".sh": "Shell",
};

const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "build", "target", ".venv", "venv", "__pycache__", ".yuj"]);
/** Files looked at for the language count: enough to know, cheap on a big tree. */
const MAX_FILES = 5000;

export function readRepoFacts(cwd: string): RepoFacts {
  const counts = new Map<string, number>();
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > 6 || seen > MAX_FILES) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) walk(join(dir, e.name), depth + 1);
        continue;
      }
      seen++;
      const lang = LANGUAGE_OF[e.name.slice(e.name.lastIndexOf("."))];
      if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
    }
  };
  walk(cwd, 0);
  const languages = [...counts].sort((a, b) => b[1] - a[1]).map(([l]) => l);
  return { name: cwd.split("/").filter(Boolean).pop() ?? "project", languages, commands: commandsOf(cwd) };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function commandsOf(cwd: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const pkg = readText(join(cwd, "package.json"));
  if (pkg) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts ?? {};
      const runner = existsSync(join(cwd, "pnpm-lock.yaml")) ? "pnpm" : existsSync(join(cwd, "yarn.lock")) ? "yarn" : "npm";
      for (const name of ["build", "test", "lint", "typecheck", "start", "dev"]) {
        if (typeof scripts[name] === "string") out.push([name, name === "test" || name === "start" ? `${runner} ${name}` : `${runner} run ${name}`]);
      }
    } catch {
      // A package.json that does not parse names no scripts.
    }
  }
  const make = readText(join(cwd, "Makefile"));
  if (make) {
    const targets = [...make.matchAll(/^([A-Za-z][\w-]*):(?!=)/gm)].map((m) => m[1]!);
    for (const t of ["build", "test", "lint", "check", "all"]) if (targets.includes(t)) out.push([t, `make ${t}`]);
  }
  const pyproject = readText(join(cwd, "pyproject.toml"));
  if (pyproject) {
    if (/\[tool\.pytest|pytest/.test(pyproject) || existsSync(join(cwd, "tests"))) out.push(["test", "python -m pytest"]);
    if (/\[tool\.ruff/.test(pyproject)) out.push(["lint", "ruff check ."]);
  } else if (existsSync(join(cwd, "setup.py")) || existsSync(join(cwd, "pytest.ini"))) out.push(["test", "python -m pytest"]);
  if (existsSync(join(cwd, "Cargo.toml"))) out.push(["build", "cargo build"], ["test", "cargo test"]);
  if (existsSync(join(cwd, "go.mod"))) out.push(["build", "go build ./..."], ["test", "go test ./..."]);
  return out;
}

/** The AGENTS.md text for the facts. Pure. */
export function agentsSkeleton(f: RepoFacts): string {
  const langs = f.languages.length ? f.languages.join(", ") : "(none recognised; say what the project is written in)";
  const commands = f.commands.length
    ? f.commands.map(([what, cmd]) => `- ${what}: \`${cmd}\``).join("\n")
    : "- (none found in package.json, Makefile, pyproject.toml, Cargo.toml or go.mod; add them here)";
  return [
    `# ${f.name}`,
    "",
    "Notes for coding agents working in this repository.",
    "",
    "## Languages",
    "",
    langs,
    "",
    "## Commands",
    "",
    commands,
    "",
    "## Conventions",
    "",
    "- (code style, naming, where tests go)",
    "",
    "## Before you finish",
    "",
    "- Run the tests above and make sure they pass.",
    "",
  ].join("\n");
}

/** Writes AGENTS.md; `{ exists }` when there is one and `overwrite` is false. */
export function initAgents(cwd: string, overwrite: boolean): { written: string } | { exists: string } {
  const file = join(cwd, "AGENTS.md");
  if (existsSync(file) && !overwrite) return { exists: file };
  atomicWriteSync(file, agentsSkeleton(readRepoFacts(cwd)), { mode: 0o644 });
  return { written: file };
}
