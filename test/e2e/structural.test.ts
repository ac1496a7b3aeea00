// The structural tools through the built CLI, as a user runs them: the
// settings switch them on, the permission gate stands in front of them,
// tree-sitter loads only when one of them runs, and a missing grammar is a
// setup error (the installation is rebuilt here without it).

import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";

const ON = "[tools]\nstructural_enabled = true\n";

function project(files: Record<string, string>, config = ON): { cwd: string; cfg: string } {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-structural-e2e-"));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(cwd, rel, ".."), { recursive: true });
    writeFileSync(join(cwd, rel), content);
  }
  const cfg = join(cwd, "..", `${cwd.split("/").pop()}.toml`);
  writeFileSync(cfg, config);
  return { cwd, cfg };
}

const SEARCH = { path: "app.py", language: "python", query: '((identifier) @match (#eq? @match "old"))' };

describe("structural tools from the command line", () => {
  it("exist only with structural_enabled", async () => {
    const { cwd, cfg } = project({ "app.py": "old = 1\n" }, "");
    const env = isolatedEnv();
    const off = await runCli(["--config", cfg, "tool", "structural_search", JSON.stringify(SEARCH)], { cwd, env });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('unknown tool "structural_search"');
    writeFileSync(cfg, ON);
    const on = await runCli(["--config", cfg, "tool", "structural_search", JSON.stringify(SEARCH)], { cwd, env });
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain("app.py:1:1 bytes=[0,3)");
  });

  it("pass the permission gate: a denied or unanswerable edit changes nothing, an allowed one applies", async () => {
    const rules = (action: string) => `${ON}[[permissions.rules]]\ntool = "structural_edit"\npattern = "app.py"\naction = "${action}"\n`;
    const { cwd, cfg } = project({ "app.py": "old = 1\n" }, rules("deny"));
    const env = isolatedEnv();
    const pre = await runCli(["--config", cfg, "tool", "structural_search", JSON.stringify({ ...SEARCH, replacement: "new" })], { cwd, env });
    const hash = /preview_sha256="([0-9a-f]{64})"/.exec(pre.stdout)![1]!;
    const args = JSON.stringify({ ...SEARCH, replacement: "new", expected_sha256: hash });
    const before = statSync(join(cwd, "app.py")).mtimeMs;
    const denied = await runCli(["--config", cfg, "tool", "structural_edit", args], { cwd, env });
    expect(denied.code).toBe(1);
    expect(denied.stdout).toContain("ERROR: permission denied");
    writeFileSync(cfg, rules("ask"));
    const asked = await runCli(["--config", cfg, "tool", "structural_edit", args], { cwd, env });
    expect(asked.stdout).toContain("yuj tool cannot ask for approval");
    expect(readFileSync(join(cwd, "app.py"), "utf8")).toBe("old = 1\n");
    expect(statSync(join(cwd, "app.py")).mtimeMs).toBe(before);
    writeFileSync(cfg, rules("allow"));
    const allowed = await runCli(["--config", cfg, "tool", "structural_edit", args], { cwd, env });
    expect(allowed.code, allowed.stdout).toBe(0);
    expect(readFileSync(join(cwd, "app.py"), "utf8")).toBe("new = 1\n");
  });
});

// Every module a yuj process loads, recorded by a module hook; the bundle's
// chunks, which the built CLI compiles through vm.Script (see
// scripts/bundle/chunk-loader.js), by a wrapper of vm.Script.
function loadedModules(): { hook: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "yuj-load-hook-"));
  const log = join(dir, "loaded.txt");
  writeFileSync(
    join(dir, "hooks.mjs"),
    'import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  appendFileSync(process.env.YUJ_TEST_LOADED, url + "\\n");\n  return next(url, context);\n}\n',
  );
  writeFileSync(
    join(dir, "register.mjs"),
    [
      'import { register, syncBuiltinESMExports } from "node:module";',
      'import { appendFileSync } from "node:fs";',
      'import { pathToFileURL } from "node:url";',
      'import vm from "node:vm";',
      'register("./hooks.mjs", import.meta.url);',
      "const Script = vm.Script;",
      "vm.Script = class extends Script {",
      "  constructor(code, opts) {",
      "    super(code, opts);",
      '    if (opts?.filename?.startsWith("/")) appendFileSync(process.env.YUJ_TEST_LOADED, pathToFileURL(opts.filename).href + "\\n");',
      "  }",
      "};",
      "syncBuiltinESMExports();",
      "",
    ].join("\n"),
  );
  return { hook: join(dir, "register.mjs"), log };
}

function loadsTreeSitter(log: string): boolean {
  const files = readFileSync(log, "utf8").split("\n").filter((u) => u.startsWith("file://") && u.includes("/dist/"));
  expect(files.length).toBeGreaterThan(0);
  return files.some((u) => /web-tree-sitter|tree-sitter-wasms|Parser\.init/.test(readFileSync(new URL(u), "utf8")));
}

describe("start-up", () => {
  it("loads nothing of tree-sitter until a structural tool runs", async () => {
    const { cwd, cfg } = project({ "app.py": "old = 1\n" });
    const { hook, log } = loadedModules();
    const run = (tool: string, args: object) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ["--import", hook, join(repoRoot, "bin", "yuj.js"), "--config", cfg, "tool", tool, JSON.stringify(args)], {
          cwd,
          env: { ...isolatedEnv(), YUJ_TEST_LOADED: log },
          stdio: "ignore",
        });
        child.on("close", resolve);
      });
    expect(await run("read", { path: "app.py" })).toBe(0);
    expect(loadsTreeSitter(log)).toBe(false);
    expect(await run("structural_search", SEARCH)).toBe(0);
    expect(loadsTreeSitter(log)).toBe(true);
  });
});

/**
 * A copy of the installed package (bin, dist, profiles) whose node_modules
 * links every real package except those `leaveOut` names; `grammars`, when
 * given, replaces tree-sitter-wasms by one holding only those grammar files.
 */
function installWithout(leaveOut: string[], grammars?: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "yuj-install-"));
  for (const dir of ["bin", "dist", "profiles"]) cpSync(join(repoRoot, dir), join(root, dir), { recursive: true });
  cpSync(join(repoRoot, "package.json"), join(root, "package.json"));
  const nm = join(root, "node_modules");
  mkdirSync(nm);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    if (leaveOut.includes(entry) || entry === ".bin") continue;
    symlinkSync(join(repoRoot, "node_modules", entry), join(nm, entry));
  }
  if (grammars) {
    const pkg = join(nm, "tree-sitter-wasms");
    mkdirSync(join(pkg, "out"), { recursive: true });
    cpSync(join(repoRoot, "node_modules", "tree-sitter-wasms", "package.json"), join(pkg, "package.json"));
    for (const g of grammars) symlinkSync(join(repoRoot, "node_modules", "tree-sitter-wasms", "out", g), join(pkg, "out", g));
  }
  return root;
}

/** The CLI of another installation, as runCli runs this one's. */
function runInstalled(root: string, args: string[], opts: { cwd: string; env: Record<string, string> }): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, "bin", "yuj.js"), ...args], opts, (err, stdout) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

describe("a missing parser", () => {
  it("is a setup error naming the file, never a download; the grammars that are there still work", async () => {
    const root = installWithout(["tree-sitter-wasms"], ["tree-sitter-typescript.wasm"]);
    const { cwd, cfg } = project({ "app.py": "old = 1\n", "a.ts": "const old = 1;\n" });
    const env = isolatedEnv();
    const copy = (install: string, tool: string, args: object) => runInstalled(install, ["--config", cfg, "tool", tool, JSON.stringify(args)], { cwd, env });
    const py = await copy(root, "structural_search", SEARCH);
    expect(py.code).toBe(1);
    expect(py.stdout).toContain('error_kind="backend_unavailable"');
    expect(py.stdout).toContain("the python parser is not installed");
    expect(py.stdout).toContain("tree-sitter-python.wasm is missing");
    expect(py.stdout).toContain("never downloads");
    const ts = await copy(root, "structural_search", { path: "a.ts", language: "typescript", query: '((identifier) @match (#eq? @match "old"))' });
    expect(ts.code, ts.stdout).toBe(0);
    expect(ts.stdout).toContain("a.ts:1:7 bytes=[6,9)");

    const defsCfg = `${cfg}.defs.toml`;
    writeFileSync(defsCfg, "[tools]\nast_search_enabled = true\n[tools.list_definitions]\nenabled = true\n");
    const outline = await runInstalled(root, ["--config", defsCfg, "tool", "list_definitions", JSON.stringify({ path: "app.py" })], { cwd, env });
    expect(outline.stdout).toContain('<list_definitions status="error" error_kind="backend_unavailable" path="app.py"');
    const repo = await runInstalled(root, ["--config", defsCfg, "tool", "list_definitions", JSON.stringify({ path: ".", repo_wide: true, symbol: "old" })], { cwd, env });
    expect(repo.stdout).toContain("the python parser is not installed");

    const noRuntime = installWithout(["web-tree-sitter"]);
    const rt = (await copy(noRuntime, "structural_search", SEARCH)).stdout;
    expect(rt).toContain('error_kind="backend_unavailable"');
    expect(rt).toContain("the tree-sitter runtime (web-tree-sitter/tree-sitter.wasm) is not installed");
  });
});
