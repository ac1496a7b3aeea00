// /init's AGENTS.md: the languages and commands a real repository shows,
// and an existing file left alone unless overwriting was confirmed.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentsSkeleton, initAgents, readRepoFacts } from "../../app/agents-init.js";

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "yuj-init-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("/init", () => {
  it("finds the languages and the build and test commands", () => {
    const dir = repo({
      "package.json": JSON.stringify({ scripts: { build: "tsc", test: "vitest run", lint: "eslint ." } }),
      "pnpm-lock.yaml": "",
      "src/a.ts": "",
      "src/b.ts": "",
      "tools/c.py": "",
      "node_modules/x/skip.js": "",
      "pyproject.toml": "[tool.ruff]\n",
      Makefile: "check:\n\ttrue\nVAR := 1\n",
    });
    const facts = readRepoFacts(dir);
    expect(facts.languages).toEqual(["TypeScript", "Python"]);
    expect(facts.commands).toEqual([
      ["build", "pnpm run build"],
      ["test", "pnpm test"],
      ["lint", "pnpm run lint"],
      ["check", "make check"],
      ["lint", "ruff check ."],
    ]);
    const text = agentsSkeleton(facts);
    expect(text).toContain("- test: `pnpm test`");
    expect(text).toContain("TypeScript, Python");
  });

  it("says what to fill in when it finds nothing", () => {
    const text = agentsSkeleton(readRepoFacts(repo({ "notes.txt": "" })));
    expect(text).toContain("(none recognised");
    expect(text).toContain("(none found in package.json, Makefile");
  });

  it("leaves an existing AGENTS.md alone unless told to overwrite it", () => {
    const dir = repo({ "AGENTS.md": "mine\n", "main.go": "", "go.mod": "module x\n" });
    expect(initAgents(dir, false)).toEqual({ exists: join(dir, "AGENTS.md") });
    expect(readFileSync(join(dir, "AGENTS.md"), "utf8")).toBe("mine\n");
    expect(initAgents(dir, true)).toEqual({ written: join(dir, "AGENTS.md") });
    expect(readFileSync(join(dir, "AGENTS.md"), "utf8")).toContain("`go test ./...`");
  });
});
