// Language servers and test runs, as a session meets them: the time from a
// server's start to the first diagnostics of a file (spawn, initialize, the
// project loaded and checked), a later check of an edited file, a
// references query on a warm server, inside the sandbox and outside; and
// run_tests against running the same pytest command directly.
// BENCH_LSP_RUNS sets the runs per measure (default 3); the median is shown.

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../core/config/schema.js";
import { createEmitter } from "../core/events.js";
import { createJobManager } from "../core/jobs/manager.js";
import { commandEnv } from "../core/jobs/shell-env.js";
import { createLspManager } from "../core/lsp/manager.js";
import { createSandbox } from "../core/sandbox/index.js";
import { nodeServices } from "../core/services.js";
import { runTestsTool } from "../tools/yuj/run_tests.js";
import { pythonWithPytest } from "../test/support/python.js";
import { BIN_DIR, TS_CONFIG } from "../test/lsp/support.js";
import { createSessionMemory } from "../core/session-memory.js";

type Row = [string, string, string];
const RUNS = Number(process.env.BENCH_LSP_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

function project(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "yuj-bench-lsp-")));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, rel, ".."), { recursive: true });
    fs.writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const TS_FILES = {
  "tsconfig.json": TS_CONFIG,
  "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
  "src/b.ts": 'import { add } from "./a";\nexport const n: string = add(1, 2);\n',
};
const PY_FILES = { "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n\n\ntotal: str = add(1, 2)\n" };

async function serverTimes(files: Record<string, string>, file: string, sandbox: "on" | "off"): Promise<{ first: number; again: number; refs?: number }> {
  const dir = project(files);
  const config = defaultConfig();
  config.sandbox.mode = sandbox;
  config.lsp.timeout_s = 120;
  const { emit } = createEmitter("bench", () => {});
  const session = fs.mkdtempSync(join(tmpdir(), "yuj-bench-lsp-session-"));
  const lsp = createLspManager({
    settings: config.lsp,
    projectDir: dir,
    sessionDir: session,
    env: commandEnv(process.env),
    sandbox: createSandbox(config, process.env, { projectDir: dir }),
    searchDirs: [BIN_DIR],
    emit,
  });
  try {
    const abs = join(dir, file);
    const text = fs.readFileSync(abs, "utf8");
    let t = performance.now();
    const first = await lsp.diagnostics(abs, text);
    if (first.kind !== "ok" || first.value.diagnostics.length !== 1) throw new Error(`unexpected first answer: ${JSON.stringify(first)}`);
    const firstMs = performance.now() - t;
    t = performance.now();
    await lsp.diagnostics(abs, `${text}\n`);
    const againMs = performance.now() - t;
    let refs: number | undefined;
    if (file.endsWith(".ts")) {
      t = performance.now();
      await lsp.query(join(dir, "src/a.ts"), fs.readFileSync(join(dir, "src/a.ts"), "utf8"), "textDocument/references", { position: { line: 0, character: 16 }, context: { includeDeclaration: true } });
      refs = performance.now() - t;
    }
    return { first: firstMs, again: againMs, ...(refs !== undefined ? { refs } : {}) };
  } finally {
    await lsp.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(session, { recursive: true, force: true });
  }
}

async function runTestsTimes(): Promise<{ tool: number; direct: number }> {
  const py = pythonWithPytest();
  const dir = project({ "pyproject.toml": '[project]\nname = "calc"\n', "calc.py": "def add(a, b):\n    return a - b\n", "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n" });
  const env = { ...commandEnv(process.env), PATH: `${py.dir}:${process.env.PATH}` };
  const session = fs.mkdtempSync(join(tmpdir(), "yuj-bench-rt-session-"));
  const { emit } = createEmitter("bench", () => {});
  const jobs = createJobManager({ sessionDir: session, emit, env });
  const config = defaultConfig();
  config.tools.run_tests.enabled = true;
  const ctx = { cwd: dir, signal: new AbortController().signal, callId: "b", emit, services: nodeServices(), config, sessionDir: session, memory: createSessionMemory(), jobs };
  try {
    let t = performance.now();
    await runTestsTool.run({}, ctx);
    const tool = performance.now() - t;
    t = performance.now();
    spawnSync("bash", ["-c", "python3 -m pytest --tb=short -q --no-header"], { cwd: dir, env, stdio: "ignore" });
    return { tool, direct: performance.now() - t };
  } finally {
    await jobs.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(session, { recursive: true, force: true });
  }
}

export async function benchCodeIntelligence(): Promise<Row[]> {
  const rows: Row[] = [];
  const sandboxes: Array<"on" | "off"> = createSandbox(defaultConfig(), process.env).active ? ["on", "off"] : ["off"];
  for (const sandbox of sandboxes) {
    const where = sandbox === "on" ? "in the sandbox" : "without the sandbox";
    const ts: Array<Awaited<ReturnType<typeof serverTimes>>> = [];
    const py: Array<Awaited<ReturnType<typeof serverTimes>>> = [];
    for (let i = 0; i < RUNS; i++) {
      ts.push(await serverTimes(TS_FILES, "src/b.ts", sandbox));
      py.push(await serverTimes(PY_FILES, "calc.py", sandbox));
    }
    rows.push([`typescript-language-server, start → first diagnostics (${where})`, fmt(median(ts.map((x) => x.first))), "the edit waits for it once"]);
    rows.push([`typescript-language-server, a later check (${where})`, fmt(median(ts.map((x) => x.again))), ""]);
    rows.push([`typescript-language-server, references on a warm server (${where})`, fmt(median(ts.map((x) => x.refs!))), ""]);
    rows.push([`pyright, start → first diagnostics (${where})`, fmt(median(py.map((x) => x.first))), ""]);
    rows.push([`pyright, a later check (${where})`, fmt(median(py.map((x) => x.again))), ""]);
  }
  if (pythonWithPytest().found) {
    const rt: Array<Awaited<ReturnType<typeof runTestsTimes>>> = [];
    for (let i = 0; i < RUNS; i++) rt.push(await runTestsTimes());
    rows.push(["run_tests, a failing pytest run (job, output, assertion context)", fmt(median(rt.map((x) => x.tool))), `the same command spawned directly: ${fmt(median(rt.map((x) => x.direct)))}`]);
  }
  return rows;
}
