// The permission decision, the guards and the write read a patch's file
// headers with one parser, so they cannot disagree about which files a patch
// changes. Each header form here is one the patch tools accept (the file is
// written when nothing stops it); a rule denying that file must then deny
// the call, and the stale-file guard must see the file it would change.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evaluate } from "../../core/permissions/engine.js";
import type { PolicyOptions } from "../../core/permissions/types.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { CHORD, rule, YUJ } from "./support.js";

interface Form {
  name: string;
  tool: string;
  handler: ToolHandler;
  policy: PolicyOptions;
  patch: string;
  /** The file the patch creates or changes. */
  file: string;
}

const v4a = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const FORMS: Form[] = [
  { name: "no space after the colon", tool: "apply_patch", handler: applyPatchTool, policy: YUJ, patch: v4a("*** Add File:secret.txt", "+x"), file: "secret.txt" },
  { name: "a tab after the colon", tool: "apply_patch", handler: applyPatchTool, policy: YUJ, patch: v4a("*** Add File:\tsecret.txt", "+x"), file: "secret.txt" },
  { name: "spaces around the path", tool: "apply_patch", handler: applyPatchTool, policy: YUJ, patch: v4a("*** Add File:   secret.txt   ", "+x"), file: "secret.txt" },
  { name: "CRLF line ends", tool: "apply_patch", handler: applyPatchTool, policy: YUJ, patch: v4a("*** Add File: secret.txt", "+x").replace(/\n/g, "\r\n"), file: "secret.txt" },
  { name: "Chord, no space after the colon", tool: "apply_patch", handler: chordApplyPatchTool, policy: { ...CHORD }, patch: v4a("*** Add File:secret.txt", "+x"), file: "secret.txt" },
  { name: "a quoted name with a space", tool: "udiff", handler: udiffTool, policy: YUJ, patch: '--- /dev/null\n+++ "b/sec ret.txt"\n@@ -0,0 +1 @@\n+x\n', file: "sec ret.txt" },
  { name: "a timestamp after a tab", tool: "udiff", handler: udiffTool, policy: YUJ, patch: "--- /dev/null\t2024-01-01\n+++ b/secret.txt\t2024-01-01\n@@ -0,0 +1 @@\n+x\n", file: "secret.txt" },
  { name: "CRLF diff", tool: "udiff", handler: udiffTool, policy: YUJ, patch: "--- /dev/null\r\n+++ b/secret.txt\r\n@@ -0,0 +1 @@\r\n+x\r\n", file: "secret.txt" },
];

let t: TestToolContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe("one patch-header parser", () => {
  it.each(FORMS)("$name: the tool writes the file the rules see", async (f) => {
    const allowAll = f.policy.surface === "chord" ? [rule("*", undefined, "allow")] : [];
    const denied = evaluate({ tool: f.tool, args: { patch: f.patch }, cwd: "/repo" }, [...allowAll, rule(f.tool, f.file, "deny")], f.policy);
    expect(denied.matchValues).toEqual([f.file]);
    expect(denied.action).toBe("deny");
    // Nothing else stops it: the tool accepts this header form and writes that file.
    t = await makeToolContext();
    const res = await f.handler.run({ patch: f.patch }, t.ctx);
    expect(res.ok, res.modelText).toBe(true);
    expect(readFileSync(join(t.cwd, f.file), "utf8")).toBe("x\n");
  });
});

describe("the guards see the patch's files as the write does", () => {
  let s: GuardedSession | undefined;
  afterEach(async () => {
    await s?.cleanup();
    s = undefined;
  });

  it("a unified diff naming both sides b/x updates x: the stale-file guard asks for x to be read first", async () => {
    s = await guardedSession((c) => {
      c.tools.edit_format = "udiff";
      c.tools.stale_file = "block";
    });
    writeFileSync(join(s.cwd, "x.ts"), "a\n");
    const out = await s.call("udiff", { patch: "--- b/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n" });
    expect(out.modelText).toBe("ERROR: stale_file: read x.ts first");
    expect(readFileSync(join(s.cwd, "x.ts"), "utf8")).toBe("a\n");
    expect(existsSync(join(s.cwd, "b"))).toBe(false);
  });
});
