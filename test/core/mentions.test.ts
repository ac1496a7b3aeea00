// @-mentions resolved in the core: the file's text (or line range) goes after
// the message in a delimited block; a missing, binary or directory mention
// attaches nothing and says why; a big file is cut at the output limit.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeAttachment, findMentions, resolveMentions } from "../../core/mentions.js";
import { fuzzyScore, rankFiles, walkFiles } from "../../core/project-files.js";

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "yuj-mentions-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/a.ts"), ["one", "two", "three", "four", "five"].join("\n") + "\n");
  writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
  return dir;
}

const opts = (cwd: string, maxChars = 80_000) => ({ cwd, maxChars, headRatio: 0.4, saveDir: join(cwd, ".out") });

describe("@-mentions", () => {
  it("finds paths with :N and :A-B suffixes, not e-mail addresses, sentence punctuation left out", () => {
    expect(findMentions("see @src/a.ts:2-4, @b.md:7 and @c.txt. mail me@host.com")).toEqual([
      { path: "src/a.ts", from: 2, to: 4 },
      { path: "b.md", from: 7, to: 7 },
      { path: "c.txt" },
    ]);
  });

  it("attaches a whole file and a range, each in its own block after the message", () => {
    const cwd = project();
    const r = resolveMentions("look at @src/a.ts and @src/a.ts:2-3", opts(cwd));
    expect(r.problems).toEqual([]);
    expect(r.modelText.startsWith("look at @src/a.ts and @src/a.ts:2-3\n\n")).toBe(true);
    expect(r.modelText).toContain('<attached_file path="src/a.ts">\none\ntwo\nthree\nfour\nfive\n</attached_file>');
    expect(r.modelText).toContain('<attached_file path="src/a.ts" lines="2-3">\ntwo\nthree\n</attached_file>');
    expect(r.attachments.map(describeAttachment)).toEqual(["src/a.ts (5 lines)", "src/a.ts:2-3 (2 lines)"]);
  });

  it("says why a mention attached nothing", () => {
    const cwd = project();
    const r = resolveMentions("@nope.ts @src @blob.bin @src/a.ts:9 @src/a.ts:3-2", opts(cwd));
    expect(r.attachments).toEqual([]);
    expect(r.modelText).toBe("@nope.ts @src @blob.bin @src/a.ts:9 @src/a.ts:3-2");
    expect(r.problems).toEqual([
      expect.stringMatching(/^@nope\.ts: no such file/),
      expect.stringMatching(/^@src is a directory/),
      expect.stringMatching(/^@blob\.bin is a binary file/),
      "@src/a.ts:9: the file has 5 lines",
      expect.stringMatching(/^@src\/a\.ts:3-2: a range is :N or :A-B/),
    ]);
  });

  it("cuts a file at the output limit and saves the whole of it", () => {
    const cwd = project();
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
    writeFileSync(join(cwd, "big.txt"), big);
    const r = resolveMentions("@big.txt", opts(cwd, 2000));
    expect(r.modelText.length).toBeLessThan(2600);
    expect(r.attachments[0]!.savedTo).toBeDefined();
    expect(readFileSync(r.attachments[0]!.savedTo!, "utf8")).toBe(big);
    expect(describeAttachment(r.attachments[0]!)).toMatch(/cut at the output limit/);
  });

  it("redacts secrets in the attached text", () => {
    const cwd = project();
    writeFileSync(join(cwd, ".env"), "KEY=sk-topsecret-value\n");
    const r = resolveMentions("@.env", { ...opts(cwd), redact: (t) => t.replaceAll("sk-topsecret-value", "[REDACTED]") });
    expect(r.modelText).toContain("KEY=[REDACTED]");
    expect(r.modelText).not.toContain("sk-topsecret");
  });
});

describe("project files for completion", () => {
  it("ranks by fuzzy match, file-name matches first", () => {
    const files = ["docs/app-notes.md", "src/app.ts", "src/components/App.tsx", "test/unrelated.ts"];
    expect(rankFiles(files, "app")[0]).toBe("src/app.ts");
    expect(rankFiles(files, "cmpap")).toEqual(["src/components/App.tsx"]);
    expect(fuzzyScore("src/app.ts", "zzz")).toBeUndefined();
  });

  it("walks a tree without a repository, skipping node_modules", () => {
    const cwd = project();
    mkdirSync(join(cwd, "node_modules/x"), { recursive: true });
    writeFileSync(join(cwd, "node_modules/x/index.js"), "");
    expect(walkFiles(cwd).sort()).toEqual(["blob.bin", "src/a.ts"]);
  });
});
