// Language servers and test runs through the built `yuj`, as a user runs it:
// a scripted model edits real files and runs real tests; the real
// typescript-language-server and pyright answer (inside the sandbox when
// bwrap works), and nothing they started is left once yuj has ended.

import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, startCli, waitUntil } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";
import { pythonWithPytest } from "../support/python.js";
import { livePidsWith } from "../support/procs.js";
import { PROBE_SERVER, processesIn, TS_CONFIG } from "../lsp/support.js";

const PYTEST = pythonWithPytest();

function project(files: Record<string, string>, turns: unknown[], toml: string): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-ci-project-")));
  for (const [rel, text] of Object.entries({ ...files, "scenario.json": JSON.stringify({ turns }) })) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  writeFileSync(join(cwd, "scripted.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${toml}`);
  return cwd;
}

interface Row {
  type: string;
  name?: string;
  modelText?: string;
  server?: string;
  state?: string;
  detail?: string;
}
const rows = (stdout: string): Row[] => stdout.trim().split("\n").map((l) => JSON.parse(l) as Row);
const results = (stdout: string, name: string) => rows(stdout).filter((r) => r.type === "tool_result" && r.name === name).map((r) => r.modelText ?? "");

const env = () => isolatedEnv({ PATH: `${PYTEST.dir}:${process.env.PATH ?? ""}` });

describe("language-server feedback in a run", () => {
  it("an edit that breaks a TypeScript file and a write that breaks a Python file get the diagnostics in their results; no server outlives yuj", async () => {
    const cwd = project(
      {
        "tsconfig.json": TS_CONFIG,
        "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\nexport const n: number = add(1, 2);\n",
        "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
      },
      [
        { tool_calls: [{ name: "edit", arguments: { path: "src/a.ts", old_str: "export const n: number", new_str: "export const n: string" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "calc.py", content: "def add(a: int, b: int) -> int:\n    return a + b\n\n\nx: str = add(1, 2)\n" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "edited" } }] },
      ],
      "[lsp]\nenabled = true\ntimeout_s = 90\n",
    );
    const res = await runCli(["code", "edit", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env: env(), timeoutMs: 180_000 });
    expect(res.code).toBe(0);
    const [edit] = results(res.stdout, "edit");
    expect(edit).toContain("Diagnostics (typescript) src/a.ts: 1 at severity error or above\n[E] 4:14 [2322] Type 'number' is not assignable to type 'string'.");
    const [write] = results(res.stdout, "write");
    expect(write).toMatch(/Diagnostics \(pyright\) calc\.py: 1 at severity error or above\n\[E\] 5:10 \[reportAssignmentType\] Type "int" is not assignable to declared type "str"/);
    const lsp = rows(res.stdout).filter((r) => r.type === "lsp_server").map((r) => `${r.server} ${r.state}${r.detail ? ` ${r.detail}` : ""}`);
    expect(lsp).toEqual(expect.arrayContaining(["typescript ready", "pyright ready", "typescript stopped session end", "pyright stopped session end"]));
    expect(processesIn(cwd)).toEqual([]);
  }, 200_000);

  it("a server killed with yuj (SIGKILL) does not stay behind", async () => {
    const cwd = project(
      { "calc.py": "x = 1\n" },
      [
        { tool_calls: [{ name: "write", arguments: { path: "calc.py", content: "x: str = 1\n" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "sleep 60" } }] },
      ],
      "[lsp]\nenabled = true\ntimeout_s = 90\n",
    );
    const e = env();
    const { child, done } = startCli(["code", "edit", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env: e });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    await waitUntil(() => out.includes('"name":"write"') && out.includes('"type":"tool_result"'), "the write's result", 120_000);
    // The server as the host sees it: bwrap (or the server itself, unsandboxed) with its argv naming the project.
    const cmdline = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8");
      } catch {
        return ""; // gone meanwhile
      }
    };
    const servers = () => livePidsWith("pyright-langserver").filter((pid) => cmdline(pid).includes(cwd) || processesIn(cwd).includes(pid));
    expect(servers().length).toBeGreaterThan(0);
    child.kill("SIGKILL");
    await done;
    // Inside the sandbox bwrap dies with yuj; outside, the server watches
    // yuj's pid, and the next start ends what is left by the running pointer.
    await runCli(["sessions"], { cwd, env: e });
    await waitUntil(() => servers().length === 0, "no language server left", 15_000);
  }, 200_000);
});

describe("a server yuj did not get to stop", () => {
  it("outside the sandbox, one that outlives a SIGKILLed yuj is ended by the next start", async () => {
    const probe = `[lsp.servers.probe]\ncommand = [${JSON.stringify(process.execPath)}, ${JSON.stringify(PROBE_SERVER)}]\nextensions = [".probe"]\ninitialization_options = { lingers = true }\n`;
    const cwd = project(
      { "x.probe": "hello\n" },
      [
        { tool_calls: [{ name: "write", arguments: { path: "x.probe", content: "hello again\n" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "sleep 60" } }] },
      ],
      `[sandbox]\nmode = "off"\n[lsp]\nenabled = true\n${probe}`,
    );
    const e = env();
    const { child, done } = startCli(["code", "edit", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env: e });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    await waitUntil(() => /"type":"tool_result"[^\n]*"name":"write"/.test(out), "the write's result", 60_000);
    expect(out).toContain("Diagnostics (probe) x.probe: none at severity error or above");
    child.kill("SIGKILL");
    await done;
    await new Promise((r) => setTimeout(r, 500));
    // The probe lingers (beside the bash job the run had started, if it had).
    const probes = () => livePidsWith("probe-server.mjs").filter((pid) => processesIn(cwd).includes(pid));
    expect(probes()).toHaveLength(1);
    const next = await runCli(["tool", "read", '{"path":"x.probe"}', "--config", "scripted.toml"], { cwd, env: e });
    expect(next.stderr).toMatch(/ended \d+ process group\(s\) or process\(es\) left by an earlier yuj that was killed: .*process group \d+ \(.*probe-server\.mjs\)/);
    await waitUntil(() => processesIn(cwd).length === 0, "the probe ended", 10_000);
  }, 120_000);
});

describe.skipIf(!PYTEST.found)("run_tests in a run", () => {
  it("a failing run is not a verification for the done guard; a passed one is", async () => {
    const cwd = project(
      {
        "pyproject.toml": '[project]\nname = "calc"\n',
        "calc.py": "def add(a, b):\n    return a + b\n",
        "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n",
      },
      [
        { tool_calls: [{ name: "edit", arguments: { path: "calc.py", old_str: "a + b", new_str: "a - b" } }] },
        { tool_calls: [{ name: "run_tests", arguments: {} }] },
        { tool_calls: [{ name: "done", arguments: { message: "first try" } }] },
        { tool_calls: [{ name: "edit", arguments: { path: "calc.py", old_str: "a - b", new_str: "a + b" } }] },
        { tool_calls: [{ name: "run_tests", arguments: { k: "add" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "fixed and tested" } }] },
      ],
      "[tools.run_tests]\nenabled = true\n[loop]\ndone_guard_enabled = true\ndone_require_mutation = true\ndone_require_verify = true\n",
    );
    const res = await runCli(["code", "fix", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env: env(), timeoutMs: 120_000 });
    expect(res.code).toBe(0);
    const [failed, passed] = results(res.stdout, "run_tests");
    expect(failed).toMatch(/^<test_results status="failed" exit_code="1" runner="pytest">\n/);
    expect(failed).toContain('<failing-assertion file="test_calc.py" line="5" radius="5">');
    expect(passed).toMatch(/^<test_results status="passed" exit_code="0" runner="pytest">\n/);
    const [refused, accepted] = results(res.stdout, "done");
    expect(refused).toMatch(/^ERROR: /);
    expect(accepted).not.toMatch(/^ERROR: /);
    expect(rows(res.stdout).at(-1)).toMatchObject({ type: "run_finished", reason: "done", message: "fixed and tested" });
  }, 150_000);

  it("`yuj tool run_tests`: the output bounded like every tool's, the full text saved; off by default", async () => {
    const cwd = project(
      {
        "pyproject.toml": '[project]\nname = "loud"\n',
        "test_loud.py": "def test_loud():\n    for i in range(3000):\n        print(f'line {i} of a long captured output')\n    assert False\n",
      },
      [],
      "[tools.run_tests]\nenabled = true\n[output]\nmax_output_chars = 4000\n",
    );
    const e = env();
    const off = await runCli(["tool", "run_tests", "{}"], { cwd, env: e });
    expect(off.code).toBe(2);
    expect(off.stderr).toMatch(/unknown tool "run_tests"/);
    const res = await runCli(["tool", "run_tests", "{}", "--config", "scripted.toml"], { cwd, env: e, timeoutMs: 120_000 });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^<test_results status="failed" exit_code="1" runner="pytest">\n/);
    expect(res.stdout.trimEnd().endsWith("</test_results>")).toBe(true);
    const saved = /full output \(\d+ chars\) saved to (\S+\.txt)/.exec(res.stdout)?.[1];
    expect(saved).toBeDefined();
    const full = readFileSync(saved!, "utf8");
    expect(full).toContain("line 2999 of a long captured output");
    expect(full).toContain('<failing-assertion file="test_loud.py" line="4" radius="5">');
    expect(res.stdout.length).toBeLessThan(6000);
  }, 150_000);

  it("a vitest project is run with vitest, and a failing test shows its assertion", async () => {
    const cwd = project(
      {
        "package.json": JSON.stringify({ name: "v", private: true, type: "module", devDependencies: { vitest: "*" } }),
        "sum.js": "export const sum = (a, b) => a + b + 1;\n",
        "sum.test.js": 'import { expect, test } from "vitest";\nimport { sum } from "./sum.js";\n\ntest("adds", () => {\n  expect(sum(1, 2)).toBe(3);\n});\n',
      },
      [],
      "[tools.run_tests]\nenabled = true\n",
    );
    symlinkSync(join(repoRoot, "node_modules"), join(cwd, "node_modules"));
    const res = await runCli(["tool", "run_tests", "{}", "--config", "scripted.toml"], { cwd, env: env(), timeoutMs: 120_000 });
    expect(res.stdout).toMatch(/^<test_results status="failed" exit_code="1" runner="vitest">\n/);
    expect(res.stdout).toContain('<failing-assertion file="sum.test.js" line="5" radius="5">');
    expect(res.stdout).toContain(">     5    expect(sum(1, 2)).toBe(3);");
  }, 150_000);
});
