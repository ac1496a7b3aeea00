// The import rules of .dependency-cruiser.cjs (the architecture: which layer
// may import which) hold for the code, and they do catch a break: the same
// rules run over a small tree that breaks each of them report each break.

import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "./support/loop-harness.js";

const LAYERS = ["app", "components", "core", "tools"];
const DEPCRUISE = join(repoRoot, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The violations depcruise reports for `dirs` under `cwd`, with the project's rule file. */
async function violations(cwd: string, dirs: string[]): Promise<Violation[]> {
  const args = [DEPCRUISE, "--config", join(repoRoot, ".dependency-cruiser.cjs"), "--output-type", "json", ...dirs];
  // depcruise exits non-zero when it finds violations; its JSON report is on stdout either way.
  const run = promisify(execFile)(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string; stderr?: string }) => {
      if (!err.stdout) throw new Error(`depcruise failed: ${err.stderr ?? String(err)}`);
      return { stdout: err.stdout };
    },
  );
  const report = JSON.parse((await run).stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

// A package is named from its node_modules folder on (the broken tree links to the project's).
const brief = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*?node_modules\//, "node_modules/")}`;

const tmp = mkdtempSync(join(tmpdir(), "yuj-import-rules-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function put(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

describe("import rules", () => {
  it("hold for app/, components/, core/ and tools/", async () => {
    expect((await violations(repoRoot, LAYERS)).map(brief)).toEqual([]);
  }, 120_000);

  it("report each forbidden import in a tree that breaks them", async () => {
    const root = join(tmp, "broken");
    mkdirSync(root);
    cpSync(join(repoRoot, "tsconfig.json"), join(root, "tsconfig.json"));
    symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"));
    put(root, "app/cli.ts", 'export const cli = 1;\n');
    put(root, "core/loop.ts", 'import { card } from "../components/card.js";\nimport { run } from "../tools/bash.js";\nexport const loop = card + run;\n');
    put(root, "core/view.ts", 'import type { Key } from "ink";\nimport type { ReactNode } from "react";\nexport type Both = [Key, ReactNode];\n');
    put(root, "core/cli-type.ts", 'import type { cli } from "../app/cli.js";\nexport type Cli = typeof cli;\n');
    put(root, "tools/bash.ts", 'import { cli } from "../app/cli.js";\nimport { card } from "../components/card.js";\nexport const run = cli + card;\n');
    put(root, "tools/render.ts", 'import { Text } from "ink";\nexport const T = Text;\n');
    put(root, "components/card.ts", 'import { cli } from "../app/cli.js";\nexport const card = cli;\n');
    put(root, "components/run.ts", 'import { run } from "../tools/bash.js";\nimport { gone } from "./missing.js";\nexport const r = run + gone;\n');

    const found = (await violations(root, LAYERS)).map(brief).sort();
    expect(found).toEqual(
      [
        "core-stays-headless: core/loop.ts → components/card.ts",
        "core-stays-headless: core/loop.ts → tools/bash.ts",
        "core-stays-headless: core/cli-type.ts → app/cli.ts",
        "nothing-imports-the-cli: core/cli-type.ts → app/cli.ts",
        "core-without-ui-libraries: core/view.ts → node_modules/ink/build/index.js",
        "core-without-ui-libraries: core/view.ts → node_modules/react/index.js",
        "tools-without-view-or-cli: tools/bash.ts → app/cli.ts",
        "nothing-imports-the-cli: tools/bash.ts → app/cli.ts",
        "tools-without-view-or-cli: tools/bash.ts → components/card.ts",
        "tools-without-ui-libraries: tools/render.ts → node_modules/ink/build/index.js",
        "components-without-tools-or-cli: components/card.ts → app/cli.ts",
        "nothing-imports-the-cli: components/card.ts → app/cli.ts",
        "components-without-tools-or-cli: components/run.ts → tools/bash.ts",
        "every-import-resolves: components/run.ts → ./missing.js",
      ].sort(),
    );
  }, 120_000);
});
