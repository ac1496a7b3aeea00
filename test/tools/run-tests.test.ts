// run_tests with real test runners on small projects made here: pytest
// (python3 -m pytest), vitest and jest from this repository's node_modules,
// cargo and ctest where their toolchains exist, go only where it exists
// (each skipped with the reason otherwise). Every command runs as a job of
// a real job manager.

import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJobManager } from "../../core/jobs/manager.js";
import { commandEnv } from "../../core/jobs/shell-env.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { RUN_TESTS_DISABLED, runTestsTool } from "../../tools/yuj/run_tests.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { repoRoot } from "../support/loop-harness.js";
import { pythonWithPytest } from "../support/python.js";

/** The test process's own runner variables would make a nested vitest or jest think it is a worker. */
function runnerEnv(): Record<string, string> {
  const env = commandEnv(process.env);
  for (const k of Object.keys(env)) if (/^(VITEST|JEST_WORKER_ID$|TEST$|NODE_ENV$)/.test(k)) delete env[k];
  return { ...env, PATH: `${pythonWithPytest().dir}:${env.PATH ?? ""}` };
}

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
const PYTEST = pythonWithPytest().found;
if (!PYTEST) console.warn("run_tests pytest tests skipped: no python3 with pytest (python3 -m pytest); apt-get install python3-pytest");
const CARGO = has("cargo");
if (!CARGO) console.warn("run_tests cargo test skipped: cargo is not installed");
const GO = has("go");
if (!GO) console.warn("run_tests go test skipped: go is not installed");
const CMAKE = has("cmake") && has("ctest");
if (!CMAKE) console.warn("run_tests ctest test skipped: cmake/ctest are not installed");

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => (c.tools.run_tests.enabled = true));
  t.ctx.jobs = createJobManager({ sessionDir: t.ctx.sessionDir, emit: t.ctx.emit, env: runnerEnv() });
});
afterEach(async () => {
  await t.ctx.jobs!.shutdown();
  await t.cleanup();
});

const run = (args: Record<string, unknown> = {}) => runTestsTool.run(args as never, t.ctx);
const header = (text: string) => text.split("\n")[0];

const PY_CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n";
const PY_TESTS = "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";

describe.skipIf(!PYTEST)("pytest", () => {
  beforeEach(() => t.put({ "pyproject.toml": '[project]\nname = "calc"\n', "calc.py": PY_CALC, "tests/test_calc.py": PY_TESTS, "tests/conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n" }));

  it("an edit of the same length and mtime as the last run's source is tested as edited (no stale bytecode)", async () => {
    // Bytecode is written by default; this machine's own setting must not hide the case.
    await t.ctx.jobs!.shutdown();
    const env = runnerEnv();
    delete env.PYTHONDONTWRITEBYTECODE;
    t.ctx.jobs = createJobManager({ sessionDir: t.ctx.sessionDir, emit: t.ctx.emit, env });
    const calc = path.join(t.cwd, "calc.py");
    const before = fs.statSync(calc);
    expect(header((await run()).modelText)).toBe('<test_results status="failed" exit_code="1" runner="pytest">');
    // `a - b` to `a + b` keeps the size; the same mtime stands for an edit within the run's second.
    fs.writeFileSync(calc, PY_CALC.replace("a - b", "a + b"));
    fs.utimesSync(calc, before.atime, before.mtime);
    expect(header((await run()).modelText)).toBe('<test_results status="passed" exit_code="0" runner="pytest">');
  });

  it("a failing run: status, exit code, runner, the output and the source around the failing line", async () => {
    const r = await run();
    expect(r.ok).toBe(false);
    expect(header(r.modelText)).toBe('<test_results status="failed" exit_code="1" runner="pytest">');
    expect(r.modelText).toContain("FAILED tests/test_calc.py::test_add");
    expect(r.modelText).toContain(
      [
        '<failing-assertion file="tests/test_calc.py" line="5" radius="5">',
        "      1  from calc import add, mul",
        "      2  ",
        "      3  ",
        "      4  def test_add():",
        ">     5      assert add(2, 2) == 4",
        "      6  ",
        "      7  ",
        "      8  def test_mul():",
        "      9      assert mul(2, 3) == 6",
        "</failing-assertion>",
      ].join("\n"),
    );
    expect(r.modelText.endsWith("</failing-assertion>\n</test_results>")).toBe(true);
    // The person is shown the command and its output, never the envelope; a failing run checked nothing.
    expect(r.display).toMatchObject({ kind: "command", status: "exited", exitCode: 1 });
    const shown = r.display?.kind === "command" ? r.display : undefined;
    expect(shown?.command).toMatch(/pytest/);
    expect(shown?.output).toContain("FAILED tests/test_calc.py::test_add");
    expect(shown?.output).not.toContain("<test_results");
    expect(shown?.output.endsWith("[pytest: failed]")).toBe(true);
    expect(runTestsTool.verifies!({}, r)).toBe(false);
  }, 60_000);

  it("k selects tests by name; last_failed repeats the failed ones; a passing run is passed with exit code 0", async () => {
    const passed = await run({ k: "mul" });
    expect(passed.ok).toBe(true);
    expect(header(passed.modelText)).toBe('<test_results status="passed" exit_code="0" runner="pytest">');
    expect(passed.modelText).not.toContain("failing-assertion");
    // A passing run is the done guard's check of the work.
    expect(runTestsTool.verifies!({ k: "mul" }, passed)).toBe(true);
    await run(); // records test_add as failed
    const again = await run({ last_failed: true });
    expect(again.modelText).toMatch(/^1 failed in /m);
    expect(again.modelText).not.toContain("passed");
  }, 60_000);

  it("path runs one file; a missing one is a usage error with advice; a file that does not import is a collection error", async () => {
    expect(header((await run({ path: "tests/test_calc.py" })).modelText)).toBe('<test_results status="failed" exit_code="1" runner="pytest">');
    const missing = await run({ path: "tests/test_none.py" });
    expect(header(missing.modelText)).toBe('<test_results status="usage_error" exit_code="4" runner="pytest">');
    expect(missing.modelText).toContain("[run_tests: the test path does not exist;");
    await t.put({ "tests/test_broken.py": "from calc import nothing_here\n\n\ndef test_x():\n    pass\n" });
    const broken = await run({ path: "tests/test_broken.py" });
    expect(header(broken.modelText)).toBe('<test_results status="collection_error" exit_code="2" runner="pytest">');
    await t.put({ "tests/test_empty.py": "X = 1\n" });
    expect(header((await run({ path: "tests/test_empty.py" })).modelText)).toBe('<test_results status="no_tests_collected" exit_code="5" runner="pytest">');
  }, 60_000);

  it("a run past [tools.run_tests].timeout is timed_out, with no exit code", async () => {
    t.ctx.config.tools.run_tests.timeout = 2;
    await t.put({ "tests/test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(30)\n" });
    const started = Date.now();
    const r = await run({ path: "tests/test_slow.py" });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.ok).toBe(false);
    expect(r.modelText.split("\n").slice(0, 2)).toEqual(['<test_results status="timed_out" runner="pytest">', "ERROR: command timed out after 2s"]);
  }, 60_000);
});

describe("vitest and jest", () => {
  const JS_SUM = "function sum(a, b) {\n  return a + b + 1;\n}\nmodule.exports = { sum };\n";
  beforeEach(() => fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(t.cwd, "node_modules")));

  it("vitest, named in package.json: a failing run with the assertion's context", async () => {
    await t.put({
      "package.json": JSON.stringify({ name: "v", private: true, type: "module", devDependencies: { vitest: "*" } }),
      "sum.js": "export function sum(a, b) {\n  return a + b + 1;\n}\n",
      "sum.test.js": 'import { expect, test } from "vitest";\nimport { sum } from "./sum.js";\n\ntest("adds", () => {\n  expect(sum(1, 2)).toBe(3);\n});\n',
    });
    const r = await run();
    expect(header(r.modelText)).toBe('<test_results status="failed" exit_code="1" runner="vitest">');
    expect(r.modelText).toContain("AssertionError: expected 4 to be 3");
    expect(r.modelText).toContain('<failing-assertion file="sum.test.js" line="5" radius="5">');
    expect(r.modelText).toContain(">     5    expect(sum(1, 2)).toBe(3);");
    // A filter that leaves nothing to run checked nothing: never "passed".
    expect(header((await run({ k: "nothing matches this" })).modelText)).toBe('<test_results status="no_tests_collected" exit_code="0" runner="vitest">');
  }, 90_000);

  it("jest, for a package.json that names no vitest: a failing run with the assertion's context; k selects", async () => {
    await t.put({
      "package.json": JSON.stringify({ name: "j", private: true }),
      "sum.js": JS_SUM,
      "sum.test.js": 'const { sum } = require("./sum");\n\ntest("adds", () => {\n  expect(sum(1, 2)).toBe(3);\n});\n\ntest("is a number", () => {\n  expect(typeof sum(1, 2)).toBe("number");\n});\n',
    });
    const r = await run();
    expect(header(r.modelText)).toBe('<test_results status="failed" exit_code="1" runner="jest">');
    expect(r.modelText).toContain('<failing-assertion file="sum.test.js" line="4" radius="5">');
    expect(r.modelText).toContain(">     4    expect(sum(1, 2)).toBe(3);");
    expect(header((await run({ k: "is a number" })).modelText)).toBe('<test_results status="passed" exit_code="0" runner="jest">');
    expect(header((await run({ k: "nothing matches this" })).modelText)).toBe('<test_results status="no_tests_collected" exit_code="0" runner="jest">');
  }, 90_000);
});

describe.skipIf(!CARGO)("cargo", () => {
  it("a failing test: status failed, exit code 101, the panic's line; last_failed is ignored and says so", async () => {
    await t.put({
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 2), 4);\n    }\n}\n",
    });
    const r = await run({ last_failed: true });
    expect(header(r.modelText)).toBe('<test_results status="failed" exit_code="101" runner="cargo">');
    expect(r.modelText).toContain("[cargo has no last-failed mode: last_failed was ignored and every selected test ran]");
    expect(r.modelText).toContain('<failing-assertion file="src/lib.rs" line="9" radius="5">');
  }, 180_000);
});

describe.skipIf(!GO)("go", () => {
  it("a failing test: status failed, the t.Error line", async () => {
    await t.put({
      "go.mod": "module calc\n\ngo 1.19\n",
      "calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
      "calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Errorf("Add(2, 2) = %d, want 4", Add(2, 2))\n\t}\n}\n',
    });
    const r = await run();
    expect(header(r.modelText)).toBe('<test_results status="failed" exit_code="1" runner="go">');
    expect(r.modelText).toContain('<failing-assertion file="calc_test.go" line="7" radius="5">');
  }, 180_000);
});

describe.skipIf(!CMAKE)("ctest", () => {
  it("finds the tests CMake wrote into build/; -R selects; path is ignored and says so", async () => {
    await t.put({
      "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(calc NONE)\nenable_testing()\nadd_test(NAME passes COMMAND true)\nadd_test(NAME fails COMMAND false)\n",
    });
    execFileSync("cmake", ["-S", ".", "-B", "build"], { cwd: t.cwd, stdio: "ignore" });
    const r = await run({ path: "anything" });
    expect(header(r.modelText)).toMatch(/^<test_results status="failed" exit_code="8" runner="ctest">$/);
    expect(r.modelText).toContain("path was ignored");
    expect(r.modelText).toContain("50% tests passed, 1 tests failed out of 2");
    expect(header((await run({ k: "passes" })).modelText)).toBe('<test_results status="passed" exit_code="0" runner="ctest">');
  }, 120_000);

  it("says what to do when CMake has not written any tests yet", async () => {
    await t.put({ "CMakeLists.txt": "project(x NONE)\n" });
    expect(await run()).toMatchObject({
      ok: false,
      modelText:
        '<test_results status="error" runner="ctest">\nERROR: ctest: no CTestTestfile.cmake in the repository root or build/: configure and build first (cmake -S . -B build && cmake --build build)\n</test_results>',
    });
  });
});

describe("errors", () => {
  it("is refused while [tools.run_tests] is off, with the setting named", async () => {
    t.ctx.config.tools.run_tests.enabled = false;
    expect(await run()).toMatchObject({ ok: false, modelText: RUN_TESTS_DISABLED });
    expect(RUN_TESTS_DISABLED).toBe("ERROR: run_tests tool is disabled (tools.run_tests.enabled=false)");
  });

  it("refuses a path outside the repository before running anything", async () => {
    expect(await run({ path: "../elsewhere" })).toMatchObject({ ok: false, modelText: "ERROR: path escapes cwd: ../elsewhere" });
  });

  it("a run the sandbox refuses is a tool error: status error, no exit code", async () => {
    await t.put({ "pyproject.toml": "" });
    const config = structuredClone(t.ctx.config);
    config.sandbox.mode = "on";
    config.tools.bwrap_bin = path.join(os.tmpdir(), "no-such-bwrap-here");
    const sandbox = createSandbox(config, process.env, { projectDir: t.cwd });
    await t.ctx.jobs!.shutdown();
    t.ctx.jobs = createJobManager({ sessionDir: t.ctx.sessionDir, emit: t.ctx.emit, env: runnerEnv(), sandbox });
    const r = await run();
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^<test_results status="error" runner="pytest">\nERROR: sandbox unavailable: .*; the command was not run\n<\/test_results>$/);
  });
});
