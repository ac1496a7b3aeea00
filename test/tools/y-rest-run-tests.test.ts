// run_tests as the reference's own tests pin it, on real projects and real
// processes: a runner that cannot start is `runner_unavailable` (never
// `failed`), with advice for the environment; the advice for a missing test
// path and an empty last-failed cache uses the reference's words; the body
// starts at the runner's first line of text.

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJobManager } from "../../core/jobs/manager.js";
import { commandEnv } from "../../core/jobs/shell-env.js";
import { runTestsTool } from "../../tools/yuj/run_tests.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { pythonWithPytest } from "../support/python.js";

const has = (cmd: string, env: NodeJS.ProcessEnv = process.env) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore", env }).status === 0;
const PYTEST = pythonWithPytest().found;

let t: TestToolContext;
/** A job manager whose commands see PATH with `dirs` in front (a shim, or a directory without the runner). */
function jobsWithPath(...dirs: string[]): void {
  const env = commandEnv(process.env);
  t.ctx.jobs = createJobManager({ sessionDir: t.ctx.sessionDir, emit: t.ctx.emit, env: { ...env, PATH: [...dirs, env.PATH ?? ""].join(":") } });
}
beforeEach(async () => {
  t = await makeToolContext((c) => (c.tools.run_tests.enabled = true));
});
afterEach(async () => {
  await t.ctx.jobs!.shutdown();
  await t.cleanup();
});
const run = (args: Record<string, unknown> = {}) => runTestsTool.run(args as never, t.ctx);

describe("a runner that cannot start", () => {
  it.skipIf(has("go"))("go.mod with no go installed: runner_unavailable with the shell's exit code, advice without Python words", async () => {
    jobsWithPath();
    await t.put({ "go.mod": "module example.com/calc\n\ngo 1.21\n" });
    const r = await run();
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^<test_results status="runner_unavailable" exit_code="127" runner="go">\n.*go: command not found\n/);
    expect(r.modelText.split("\n").slice(-2)).toEqual([
      "[run_tests: go could not start in the current environment (its command was not found); install it, or run the tests through bash]",
      "</test_results>",
    ]);
    expect(r.modelText).not.toContain("Python");
  });

  it("python3 without pytest: runner_unavailable, not failed, and where to find a Python that has it", async () => {
    // A python3 that answers as one without pytest does: a real process, first on PATH.
    const shim = path.join(t.ctx.sessionDir, "shim");
    fs.mkdirSync(shim);
    fs.writeFileSync(path.join(shim, "python3"), '#!/bin/sh\necho "/usr/bin/python3: No module named pytest" >&2\nexit 1\n', { mode: 0o755 });
    jobsWithPath(shim);
    await t.put({ "pyproject.toml": '[project]\nname = "calc"\n' });
    const r = await run();
    expect(r).toMatchObject({ ok: false });
    expect(r.modelText).toBe(
      [
        '<test_results status="runner_unavailable" exit_code="1" runner="pytest">',
        "/usr/bin/python3: No module named pytest",
        "[run_tests: pytest could not start in the current environment (python3 on PATH has no pytest). Use the project's existing Python environment: its .venv, a Conda env, or `uv run`; install pytest there (python3 -m pip install pytest), or run the tests through bash with that interpreter]",
        "</test_results>",
      ].join("\n"),
    );
  });

  it.skipIf(!has("cargo"))("cargo's own failing test is still failed (101), not runner_unavailable", async () => {
    jobsWithPath();
    await t.put({
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(1 + 1, 3); }\n}\n",
    });
    const r = await run();
    expect(r.modelText.split("\n")[0]).toBe('<test_results status="failed" exit_code="101" runner="cargo">');
  }, 180_000);
});

describe.skipIf(!PYTEST)("pytest advice in the reference's words", () => {
  beforeEach(async () => {
    jobsWithPath(pythonWithPytest().dir);
    await t.put({ "pyproject.toml": '[project]\nname = "calc"\n', "tests/test_ok.py": "def test_ok():\n    assert True\n" });
  });

  it("a missing test path: usage_error, the output from its first line, then 'the test path does not exist'", async () => {
    const r = await run({ path: "tests/missing.py" });
    const lines = r.modelText.split("\n");
    expect(lines[0]).toBe('<test_results status="usage_error" exit_code="4" runner="pytest">');
    expect(lines[1]).toMatch(/^(no tests ran in [\d.]+s|ERROR: file or directory not found: tests\/missing\.py)$/);
    expect(lines.slice(-2)).toEqual([
      "[run_tests: the test path does not exist; pass an existing test file or directory, or write the test first]",
      "</test_results>",
    ]);
  });

  it("last_failed that collects nothing: no_tests_collected, the lastfailed cache named, and to run once without last_failed", async () => {
    // pytest runs every test when its cache is empty; with none to run it exits 5, which the advice is for.
    fs.rmSync(path.join(t.cwd, "tests/test_ok.py"));
    const r = await run({ last_failed: true });
    const lines = r.modelText.split("\n");
    expect(lines[0]).toBe('<test_results status="no_tests_collected" exit_code="5" runner="pytest">');
    expect(lines[1]).toMatch(/^no tests ran in [\d.]+s$/);
    expect(lines.slice(-2)).toEqual([
      "[run_tests: last_failed=true ran nothing: the lastfailed cache is empty (no earlier run recorded a failure). Run run_tests once without last_failed]",
      "</test_results>",
    ]);
  });

  it("last_failed after a failing run repeats the failure, with no cache advice", async () => {
    await t.put({ "tests/test_bad.py": "def test_bad():\n    assert 1 == 2\n" });
    expect((await run()).modelText.split("\n")[0]).toBe('<test_results status="failed" exit_code="1" runner="pytest">');
    const again = await run({ last_failed: true });
    expect(again.modelText.split("\n")[0]).toBe('<test_results status="failed" exit_code="1" runner="pytest">');
    expect(again.modelText).toContain("FAILED tests/test_bad.py::test_bad");
    expect(again.modelText).not.toContain("lastfailed cache");
  });
});

describe("the command line", () => {
  it("is the reference's for pytest: a path given as tests/ runs as tests, plain words bare, others quoted", async () => {
    jobsWithPath(PYTEST ? pythonWithPytest().dir : "");
    await t.put({ "pyproject.toml": '[project]\nname = "calc"\n', "tests/test_ok.py": "def test_ok():\n    assert True\n" });
    const r = await run({ path: "tests/" });
    expect(r.display).toMatchObject({ kind: "command", command: "python3 -B -m pytest --tb=short -q --no-header tests" });
    const k = await run({ path: "tests/test_ok.py", k: "test_ok or -x" });
    expect(k.display).toMatchObject({ kind: "command", command: "python3 -B -m pytest --tb=short -q --no-header -k 'test_ok or -x' tests/test_ok.py" });
  });
});
