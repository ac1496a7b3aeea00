// The test runners run_tests knows, in the order it tries them, and the
// command line each gets. A runner is chosen by the files at the root of
// the task directory; with none of them, pytest.
//
//   runner  chosen by                                      k          last_failed     path
//   pytest  pyproject.toml setup.py setup.cfg pytest.ini   -k EXPR    --lf            positional
//           conftest.py tox.ini
//   cargo   Cargo.toml                                     positional (ignored)       positional
//   go      go.mod go.sum                                  -run EXPR  (ignored)       positional
//   vitest  package.json naming vitest, vitest.config.*    -t EXPR    (ignored)       positional
//   jest    package.json                                   -t EXPR    --onlyFailures  positional
//   ctest   CTestTestfile.cmake CMakeLists.txt             -R EXPR    --rerun-failed  (ignored)
//
// The arguments follow the base command in this order: last_failed's flag,
// k, then the path, each shell-quoted.

import * as fs from "node:fs/promises";
import * as path from "node:path";

type RunnerName = "pytest" | "cargo" | "go" | "vitest" | "jest" | "ctest";

export interface TestRunner {
  name: RunnerName;
  /** Root files that select it (any one). */
  markers: readonly string[];
  base: string;
  /** The shell fragment that selects tests by name. */
  k(expr: string): string;
  /** The flag that repeats only the tests that failed last time; none when the runner has no such mode. */
  lastFailed?: string;
  pathStyle: "positional" | "ignored";
  /** The result status for an exit code and the run's output. */
  status(exitCode: number, output: string): string;
}

/** A word the shell reads as itself stays bare (`tests/test_a.py`), as the reference writes the command; anything else is single-quoted. */
const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@%+,][A-Za-z0-9_./:=@%+,-]*$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

const PYTEST_STATUS: Record<number, string> = {
  0: "passed",
  1: "failed",
  2: "collection_error",
  3: "internal_error",
  4: "usage_error",
  5: "no_tests_collected",
};

/** 0 passed, the listed codes as given, anything else `fallback` (or `error_N` without one). */
const statusMap =
  (codes: Record<number, string>, fallback?: string) =>
  (exitCode: number): string =>
    codes[exitCode] ?? fallback ?? `error_${exitCode}`;

/**
 * vitest and jest exit 0 when a name filter leaves no test to run, and 1
 * when they find no test file: both are `no_tests_collected`, as pytest
 * says, so that a run which checked nothing never reads as passed.
 */
const jsStatus = (exitCode: number, output: string): string => {
  if (/^\s*No test(?: file)?s? found\b/im.test(output)) return "no_tests_collected";
  const summary = /^\s*Tests:?\s+(.*)$/m.exec(output)?.[1] ?? "";
  if (exitCode === 0 && /\bskipped\b/.test(summary) && !/\bpassed\b/.test(summary)) return "no_tests_collected";
  return statusMap({ 0: "passed", 1: "failed" }, "failed")(exitCode);
};

const PYTEST: TestRunner = {
  name: "pytest",
  markers: ["pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "conftest.py", "tox.ini"],
  // -B: no bytecode written. Python trusts a cached module while the source's
  // mtime (in whole seconds) and size match, so an edit of the same length in
  // the same second as the last run (`a + b` to `a - b`) would test old code.
  base: "python3 -B -m pytest --tb=short -q --no-header",
  k: (expr) => `-k ${shellQuote(expr)}`,
  lastFailed: "--lf",
  pathStyle: "positional",
  status: statusMap(PYTEST_STATUS),
};

const RUNNERS: readonly TestRunner[] = [
  PYTEST,
  {
    name: "cargo",
    markers: ["Cargo.toml"],
    base: "cargo test --no-fail-fast --quiet",
    k: shellQuote,
    pathStyle: "positional",
    status: statusMap({ 0: "passed", 101: "failed" }, "failed"),
  },
  {
    name: "go",
    markers: ["go.mod", "go.sum"],
    base: "go test",
    k: (expr) => `-run ${shellQuote(expr)}`,
    pathStyle: "positional",
    status: statusMap({ 0: "passed" }, "failed"),
  },
  {
    name: "vitest",
    markers: [],
    base: "npx --no-install vitest run",
    k: (expr) => `-t ${shellQuote(expr)}`,
    pathStyle: "positional",
    status: jsStatus,
  },
  {
    name: "jest",
    markers: ["package.json"],
    base: "npx --no-install jest --reporters=default",
    k: (expr) => `-t ${shellQuote(expr)}`,
    lastFailed: "--onlyFailures",
    pathStyle: "positional",
    status: jsStatus,
  },
  {
    name: "ctest",
    markers: ["CTestTestfile.cmake", "CMakeLists.txt"],
    base: "ctest --output-on-failure",
    k: (expr) => `-R ${shellQuote(expr)}`,
    lastFailed: "--rerun-failed",
    pathStyle: "ignored",
    status: statusMap({ 0: "passed" }, "failed"),
  },
];

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** vitest, when the package names it (a dependency or a script) or a vitest config file is there. */
async function usesVitest(root: string): Promise<boolean> {
  const names = await fs.readdir(root).catch(() => [] as string[]);
  if (names.some((n) => /^vitest\.config\.[cm]?[jt]s$/.test(n) || /^vitest\.workspace\./.test(n))) return true;
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(root, "package.json"), "utf8")) as Record<string, unknown>;
    const deps = ["dependencies", "devDependencies", "peerDependencies"].flatMap((k) => Object.keys((pkg[k] as object | undefined) ?? {}));
    const scripts = Object.values((pkg.scripts as Record<string, unknown> | undefined) ?? {});
    return deps.includes("vitest") || scripts.some((s) => typeof s === "string" && /\bvitest\b/.test(s));
  } catch {
    return false;
  }
}

/** The runner for a task directory: the first whose files are there, else pytest. */
export async function detectRunner(root: string): Promise<TestRunner> {
  for (const runner of RUNNERS) {
    if (runner.name === "vitest") {
      if (await usesVitest(root)) return runner;
      continue;
    }
    for (const marker of runner.markers) if (await exists(path.join(root, marker))) return runner;
  }
  return PYTEST;
}

export interface RunRequest {
  /** Relative to the task directory, already checked to lie inside it. */
  path?: string;
  k?: string;
  lastFailed?: boolean;
}

export interface PlannedRun {
  command: string;
  /** What the runner could not honour, said in the result. */
  notes: string[];
}

/** ctest reads the tests CMake wrote; a root without them usually builds into build/. */
async function ctestDir(root: string): Promise<string | undefined> {
  if (await exists(path.join(root, "CTestTestfile.cmake"))) return undefined;
  return (await exists(path.join(root, "build", "CTestTestfile.cmake"))) ? "build" : undefined;
}

export async function planRun(runner: TestRunner, root: string, req: RunRequest): Promise<PlannedRun | { error: string }> {
  const parts = [runner.base];
  const notes: string[] = [];
  if (runner.name === "ctest") {
    const dir = await ctestDir(root);
    if (dir) parts.push(`--test-dir ${dir}`);
    else if (!(await exists(path.join(root, "CTestTestfile.cmake")))) {
      return { error: "ctest: no CTestTestfile.cmake in the repository root or build/: configure and build first (cmake -S . -B build && cmake --build build)" };
    }
  }
  if (req.lastFailed) {
    if (runner.lastFailed) parts.push(runner.lastFailed);
    else notes.push(`${runner.name} has no last-failed mode: last_failed was ignored and every selected test ran`);
  }
  if (runner.name === "cargo" && req.k && req.path) {
    return { error: "cargo test takes one test filter: give k or path, not both" };
  }
  if (req.k) parts.push(runner.k(req.k));
  if (req.path) {
    if (runner.pathStyle === "positional") parts.push(shellQuote(req.path));
    else notes.push(`${runner.name} runs the tests CMake registered and takes no path: path was ignored (use k to select tests)`);
  }
  return { command: parts.join(" "), notes };
}
