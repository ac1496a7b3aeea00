// package.json says what the code uses: every package imported anywhere (the
// sources, the build script and the modules it swaps into the bundle, the
// benchmarks, the tests) is declared, and every declared package is imported
// or has a stated reason to be there.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/loop-harness.js";

const DIRS = ["app", "components", "core", "tools", "scripts", "bench", "test", "types", "bin"];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

/** Declared but never imported, and why each is needed all the same. */
const NOT_IMPORTED: Record<string, string> = {
  "@types/node": "types for tsc",
  "@types/react": "types for tsc",
  typescript: "npm run typecheck",
  tsx: "npm run bench runs the benchmarks with it",
  "tree-sitter-wasms": "the structural tools' grammars: .wasm files loaded by path (tools/lib/structural/grammars.ts)",
  vite: "vitest's peer dependency, pinned to a version that runs on Node 20",
  "typescript-language-server": "a real language server the tests start (a built-in [lsp] server, found in node_modules/.bin)",
  pyright: "a real language server the tests start (pyright-langserver, a built-in [lsp] server)",
  jest: "a real test runner the run_tests tests run (npx --no-install jest)",
  "dependency-cruiser": "checks the import rules (npm run lint:deps, test/import-rules.test.ts)",
  knip: "finds unused exports and files (npm run lint:exports, test/dead-exports.test.ts)",
  "@modelcontextprotocol/server-everything": "a real MCP server the tests start (node <package>/dist/index.js stdio|streamableHttp)",
  "@modelcontextprotocol/server-filesystem": "a real MCP server the tests start (node <package>/dist/index.js <root>)",
  "@types/turndown": "types for tsc",
};

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

/** Package names of the bare specifiers a file imports, requires or re-exports. */
function importedPackages(source: string): string[] {
  // Comments may show an import as an example.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  const specifier = /(?:(?<![\w-])from\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([@a-z][\w@./-]*)["']/gim;
  for (const m of text.matchAll(specifier)) {
    const spec = m[1]!;
    if (spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]!)) continue;
    found.push(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
  }
  return found;
}

describe("dependencies", () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
  const used = new Map<string, string>();
  for (const dir of DIRS) {
    for (const file of files(join(repoRoot, dir))) {
      for (const name of importedPackages(readFileSync(file, "utf8"))) if (!used.has(name)) used.set(name, file.slice(repoRoot.length + 1));
    }
  }

  it("every imported package is declared in package.json", () => {
    const undeclared = [...used].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it("every declared package is imported, or has a reason to be declared", () => {
    const unused = [...declared].filter((name) => !used.has(name) && !(name in NOT_IMPORTED));
    expect(unused).toEqual([]);
    for (const name of Object.keys(NOT_IMPORTED)) expect(declared.has(name), `${name} is listed as needed but not declared`).toBe(true);
  });

  it("every version is exact: a fresh npm ci installs what was tested", () => {
    const ranges = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v));
    expect(ranges).toEqual([]);
  });
});
