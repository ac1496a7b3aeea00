// Which runner run_tests picks, the command line it builds, and how it reads
// exit codes and failure frames: on real directories and runner output.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectRunner, planRun } from "../../tools/lib/test-runners/runners.js";
import { findFrames } from "../../tools/lib/test-runners/assertions.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-runners-"));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const pick = async (files: Record<string, string>) => (await detectRunner(project(files))).name;

describe("detection, in priority order", () => {
  it("pytest before cargo before go before jest before ctest; pytest when nothing matches", async () => {
    expect(await pick({ "setup.cfg": "", "Cargo.toml": "", "go.mod": "", "package.json": "{}", "CMakeLists.txt": "" })).toBe("pytest");
    expect(await pick({ "Cargo.toml": "", "go.mod": "", "package.json": "{}", "CMakeLists.txt": "" })).toBe("cargo");
    expect(await pick({ "go.sum": "", "package.json": "{}", "CMakeLists.txt": "" })).toBe("go");
    expect(await pick({ "package.json": "{}", "CMakeLists.txt": "" })).toBe("jest");
    expect(await pick({ "CTestTestfile.cmake": "" })).toBe("ctest");
    expect(await pick({ "README.md": "" })).toBe("pytest");
    for (const marker of ["pyproject.toml", "setup.py", "pytest.ini", "conftest.py", "tox.ini"]) expect(await pick({ [marker]: "" })).toBe("pytest");
  });

  it("vitest from package.json (a dependency or a script) or its config file, before jest", async () => {
    expect(await pick({ "package.json": JSON.stringify({ devDependencies: { vitest: "4" } }) })).toBe("vitest");
    expect(await pick({ "package.json": JSON.stringify({ scripts: { test: "vitest run" } }) })).toBe("vitest");
    expect(await pick({ "package.json": "{}", "vitest.config.ts": "" })).toBe("vitest");
    expect(await pick({ "package.json": JSON.stringify({ devDependencies: { jest: "30" }, scripts: { test: "jest" } }) })).toBe("jest");
    expect(await pick({ "package.json": "not json" })).toBe("jest");
  });
});

describe("command lines: base, last_failed's flag, k, then the path, shell-quoted", () => {
  const plan = async (files: Record<string, string>, req: Parameters<typeof planRun>[2]) => {
    const dir = project(files);
    return planRun(await detectRunner(dir), dir, req);
  };

  it("maps k and last_failed per runner", async () => {
    const req = { k: "add or it's", path: "tests/a b.py", lastFailed: true };
    expect(await plan({ "setup.py": "" }, req)).toEqual({ command: "python3 -B -m pytest --tb=short -q --no-header --lf -k 'add or it'\\''s' 'tests/a b.py'", notes: [] });
    expect(await plan({ "package.json": "{}" }, req)).toEqual({ command: "npx --no-install jest --reporters=default --onlyFailures -t 'add or it'\\''s' 'tests/a b.py'", notes: [] });
    expect(await plan({ "go.mod": "" }, req)).toEqual({
      command: "go test -run 'add or it'\\''s' 'tests/a b.py'",
      notes: ["go has no last-failed mode: last_failed was ignored and every selected test ran"],
    });
    expect(await plan({ "package.json": '{"devDependencies":{"vitest":"4"}}' }, { k: "adds" })).toEqual({ command: "npx --no-install vitest run -t adds", notes: [] });
    expect(await plan({ "Cargo.toml": "" }, { k: "adds", lastFailed: true })).toEqual({
      command: "cargo test --no-fail-fast --quiet adds",
      notes: ["cargo has no last-failed mode: last_failed was ignored and every selected test ran"],
    });
    expect(await plan({ "Cargo.toml": "" }, { k: "adds", path: "tests/x.rs" })).toEqual({ error: "cargo test takes one test filter: give k or path, not both" });
    expect(await plan({ "CTestTestfile.cmake": "" }, req)).toEqual({
      command: "ctest --output-on-failure --rerun-failed -R 'add or it'\\''s'",
      notes: ["ctest runs the tests CMake registered and takes no path: path was ignored (use k to select tests)"],
    });
    expect(await plan({ "CMakeLists.txt": "", "build/CTestTestfile.cmake": "" }, {})).toEqual({ command: "ctest --output-on-failure --test-dir build", notes: [] });
  });
});

describe("exit codes", () => {
  it("pytest's own map, error_N past it; cargo 101 and go non-zero are failed", async () => {
    const pytest = await detectRunner(project({ "setup.py": "" }));
    expect([0, 1, 2, 3, 4, 5, 7].map((c) => pytest.status(c, ""))).toEqual(["passed", "failed", "collection_error", "internal_error", "usage_error", "no_tests_collected", "error_7"]);
    const cargo = await detectRunner(project({ "Cargo.toml": "" }));
    expect([0, 101, 3].map((c) => cargo.status(c, ""))).toEqual(["passed", "failed", "failed"]);
    const go = await detectRunner(project({ "go.mod": "" }));
    expect([0, 1, 2].map((c) => go.status(c, ""))).toEqual(["passed", "failed", "failed"]);
    const ctest = await detectRunner(project({ "CTestTestfile.cmake": "" }));
    expect([0, 8].map((c) => ctest.status(c, ""))).toEqual(["passed", "failed"]);
  });
});

describe("failure frames", () => {
  it("reads each runner's form, in output order, each place once, never node_modules", () => {
    const output = [
      "tests/test_calc.py:12: in test_add",
      "tests/test_calc.py:12: in test_add",
      "tests/helpers.py:3: AssertionError",
      "    calc_test.go:9: Add(2, 2) = 0, want 4",
      "thread 'tests::adds' panicked at src/lib.rs:10:9:",
      "      at Object.<anonymous> (sum.test.js:5:17)",
      "      at Object.<anonymous> (node_modules/jest-circus/build/x.js:1:1)",
      " ❯ src/sum.test.ts:7:21",
      "Error: something at line 3", // not a frame
    ].join("\n");
    expect(findFrames(output).map((f) => `${f.file}:${f.line}`)).toEqual([
      "tests/test_calc.py:12",
      "tests/helpers.py:3",
      "calc_test.go:9",
      "src/lib.rs:10",
      "sum.test.js:5",
      "src/sum.test.ts:7",
    ]);
  });
});
