// A line of advice under a run's output, for the failures whose output
// alone does not say what to do next. Read from the runner's own words.

import type { TestRunner } from "./runners.js";

export function runnerHints(runner: TestRunner, status: string, output: string, exitCode: number, lastFailed: boolean): string[] {
  const hints: string[] = [];
  if (runner.name === "pytest") {
    if (/No module named pytest\b/.test(output)) {
      hints.push("[run_tests: python3 on PATH has no pytest installed; install it for that interpreter (python3 -m pip install pytest) or run the tests through bash]");
    } else if (exitCode === 4 && /file or directory not found:/.test(output)) {
      hints.push("[run_tests: the path does not exist; pass an existing test file or directory, or write the test first]");
    }
    if (lastFailed && status === "no_tests_collected") {
      hints.push("[run_tests: last_failed=true found no failures recorded by an earlier run; run once without last_failed]");
    }
  }
  if ((runner.name === "jest" || runner.name === "vitest") && /npx canceled due to missing packages|could not determine executable to run/.test(output)) {
    hints.push(`[run_tests: ${runner.name} is not installed in this project (npx --no-install found none); install the project's dependencies first]`);
  }
  return hints;
}
