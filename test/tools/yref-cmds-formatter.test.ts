// Formatter reports as a model reads them: a failing formatter's own words
// reach the result whichever stream it wrote them to (many formatters print
// their diagnostics on stdout), and the model's edit stays applied; a
// repository without a commit yet and a udiff change are formatted too.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

const scripts = mkdtempSync(join(tmpdir(), "yuj-fmt-out-"));
// Writes a partial result, says why on stdout, then one line on stderr, and fails.
const STDOUT_FAIL = join(scripts, "stdout-fail.mjs");
writeFileSync(
  STDOUT_FAIL,
  `import { writeFileSync } from "node:fs";
writeFileSync(process.argv[2], "formatter partial\\n");
console.log("bad format");
// Later, so the two pipes deliver in a known order.
setTimeout(() => {
  process.stderr.write("1 file failed\\n");
  process.exit(7);
}, 150);
`,
);

// Squeezes runs of spaces, like a formatter that normalises spacing.
const SQUEEZE = join(scripts, "squeeze.mjs");
writeFileSync(
  SQUEEZE,
  `import { readFileSync, writeFileSync } from "node:fs";
const p = process.argv[2];
writeFileSync(p, readFileSync(p, "utf8").replace(/  +/g, " "));
`,
);

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});
afterAll(() => rmSync(scripts, { recursive: true, force: true }));
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("formatter output", () => {
  it("a failing formatter's stdout and stderr are both in the report, and the edit stays", async () => {
    s = await guardedSession((c) => {
      c.formatter.command = [process.execPath, STDOUT_FAIL, "{path}"];
      c.formatter.extensions = [".py"];
    });
    await s.put({ "app.py": "value = 1\n" });
    const out = await s.call("write", { path: "app.py", content: "model edit\n" });
    expect(out.ok).toBe(true);
    expect(readFileSync(join(s.cwd, "app.py"), "utf8")).toBe("formatter partial\n");
    expect(out.modelText).toBe(
      [
        "OK: wrote 11 bytes to app.py",
        "",
        "[formatter] app.py: failed (exit code 7); the edit is kept",
        `root: ${realpathSync(s.cwd)}`,
        `sha256 before: ${sha("model edit\n")}`,
        `sha256 after: ${sha("formatter partial\n")}`,
        "changed paths: app.py (not a git repository: only the target is checked)",
        "output (tail):",
        "  bad format",
        "  1 file failed",
      ].join("\n"),
    );
  });
});

describe("formatter on the reference's other cases", () => {
  const squeeze = (more: (c: Config) => void = () => undefined) =>
    guardedSession((c) => {
      c.formatter.command = [process.execPath, SQUEEZE, "{path}"];
      c.formatter.extensions = [".py"];
      more(c);
    });

  it("a git repository before its first commit: the written file is formatted and named as changed", async () => {
    s = await squeeze();
    execFileSync("git", ["init", "-q"], { cwd: s.cwd });
    const out = await s.call("write", { path: "app.py", content: "value  =  2\n" });
    expect(readFileSync(join(s.cwd, "app.py"), "utf8")).toBe("value = 2\n");
    expect(out.modelText).toContain("[formatter] app.py: ok\n");
    expect(out.modelText).toMatch(/\nchanged paths: app\.py$/);
  });

  it("udiff: the patched file is formatted and the report follows the diff's result", async () => {
    s = await squeeze((c) => (c.tools.edit_format = "udiff"));
    await s.put({ "app.py": "value = 1\n" });
    const out = await s.call("udiff", { patch: "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-value = 1\n+value  =  4\n" });
    expect(out.ok).toBe(true);
    expect(readFileSync(join(s.cwd, "app.py"), "utf8")).toBe("value = 4\n");
    expect(out.modelText).toMatch(/^OK: applied unified diff \(1 file\(s\)\)\n\n\[formatter\] app\.py: ok\n/);
  });
});
