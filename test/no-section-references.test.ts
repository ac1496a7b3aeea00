// Comments state their rule and why, never a section number of a document
// the reader of the code does not have ("digest 4.2", "digest §2"). This
// scans every tracked text file.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/loop-harness.js";

/** A section reference: "digest 1.12", "digest §2", "digest 4.1/4.2", "the digest's", or the file itself. */
const SECTION_REFERENCE = /\bdigest\s*(§\s*)?\d+(\.\d+)?\b|\bdigest's\b|reference-digest/i;

function trackedTextFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" });
  return out
    .split("\0")
    .filter((f) => /\.(ts|tsx|mjs|cjs|js|toml|md|txt|json)$/.test(f))
    .filter((f) => f !== "test/no-section-references.test.ts");
}

/** `file:line: text` of every line with a section reference. */
function sectionReferences(files: string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    read(file)
      .split("\n")
      .forEach((line, i) => {
        if (SECTION_REFERENCE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("comments without section references", () => {
  it("no tracked file cites a section of a document the reader does not have", () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(sectionReferences(files, (f) => readFileSync(join(repoRoot, f), "utf8"))).toEqual([]);
  });

  it("catches the forms such references take, and leaves a SHA-256 digest alone", () => {
    const text: Record<string, string> = {
      "a.ts": "// The rule (digest 4.2): x\n// see digest §2\n// (digest 4.1/4.2)\n// in the digest's surfaces",
      "b.ts": 'const d = createHash("sha256").update(s).digest("hex");\n// the digest the preview carries',
    };
    expect(sectionReferences(Object.keys(text), (f) => text[f]!)).toEqual([
      "a.ts:1: // The rule (digest 4.2): x",
      "a.ts:2: // see digest §2",
      "a.ts:3: // (digest 4.1/4.2)",
      "a.ts:4: // in the digest's surfaces",
    ]);
  });
});
