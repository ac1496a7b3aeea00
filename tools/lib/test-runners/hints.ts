// A line of advice under a run's output, for the failures whose output
// alone does not say what to do next, and whether the runner could start at
// all. Read from the runner's own words.

import type { TestRunner } from "./runners.js";

const JS_MISSING = /npx canceled due to missing packages|could not determine executable to run/;

/**
 * The runner never ran a test: its command is not installed (the shell's 127,
 * `command not found`), pytest is missing from python3, or npx found no
 * jest/vitest. The status says so (`runner_unavailable`), never `failed`: no
 * test failed, and the fix is the environment, not the code.
 */
export function runnerUnavailable(runner: TestRunner, output: string, exitCode: number): boolean {
  if (exitCode === 127 && /command not found|No such file or directory/.test(output)) return true;
  if (runner.name === "pytest") return /No module named pytest\b/.test(output);
  if (runner.name === "jest" || runner.name === "vitest") return JS_MISSING.test(output);
  return false;
}

export function runnerHints(runner: TestRunner, status: string, output: string, exitCode: number, lastFailed: boolean): string[] {
  const hints: string[] = [];
  if (status === "runner_unavailable") {
    hints.push(unavailableHint(runner));
    return hints;
  }
  if (runner.name === "pytest") {
    if (exitCode === 4 && /file or directory not found:/.test(output)) {
      hints.push("[run_tests: the test path does not exist; pass an existing test file or directory, or write the test first]");
    }
    if (lastFailed && status === "no_tests_collected") {
      hints.push("[run_tests: last_failed=true ran nothing: the lastfailed cache is empty (no earlier run recorded a failure). Run run_tests once without last_failed]");
    }
  }
  return hints;
}

/** What to do when the runner could not start, in the words of the runner's own ecosystem. */
function unavailableHint(runner: TestRunner): string {
  if (runner.name === "pytest") {
    return (
      "[run_tests: pytest could not start in the current environment (python3 on PATH has no pytest). " +
      "Use the project's existing Python environment: its .venv, a Conda env, or `uv run`; install pytest there " +
      "(python3 -m pip install pytest), or run the tests through bash with that interpreter]"
    );
  }
  if (runner.name === "jest" || runner.name === "vitest") {
    return `[run_tests: ${runner.name} could not start: it is not installed in this project (npx --no-install found none); install the project's dependencies first]`;
  }
  return `[run_tests: ${runner.name} could not start in the current environment (its command was not found); install it, or run the tests through bash]`;
}
