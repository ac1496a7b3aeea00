// Command output as the model sees it, on both surfaces, from real commands:
// redrawn progress lines at their last state, escapes stripped, control bytes
// shown, long runs of similar lines collapsed before the size bound, and the
// saved full output of a cut result opened with read and grep.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { readTool } from "../../tools/yuj/read.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { shellTool } from "../../tools/chord/shell.js";
import { jobOutputTool } from "../../tools/chord/job_output.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordGrepTool } from "../../tools/chord/grep.js";
import { collapseSimilarLines, keepLastRedraws } from "../../core/text/output-lines.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
const bash = (cmd: string) => call(bashTool, { cmd });
const shell = (command: string) => call(shellTool, { command });
const exited = "[status: completed (exit code 0)]";

describe("output cleaning, both surfaces", () => {
  it("keeps a redrawn progress line's last state", async () => {
    const cmd = String.raw`printf '10%%\r50%%\r100%%\n'; printf 'a\rb\nc\rd\n'; printf 'done\r'`;
    expect(await bash(cmd)).toMatchObject({ ok: true, modelText: "100%\nb\nd\ndone" });
    expect(await shell(cmd)).toMatchObject({ ok: true, modelText: `100%\nb\nd\ndone\n${exited}` });
  });

  it("strips escape sequences", async () => {
    const cmd = String.raw`printf '\033[31merror\033[0m\n\033[2Kdone\n\033]0;title\007after\n'`;
    expect(await bash(cmd)).toMatchObject({ ok: true, modelText: "error\ndone\nafter" });
    expect(await shell(cmd)).toMatchObject({ ok: true, modelText: `error\ndone\nafter\n${exited}` });
  });

  it("shows NUL and other control bytes instead of sending or dropping them", async () => {
    const cmd = String.raw`printf 'a\000b\007c\010d\n'`;
    expect(await bash(cmd)).toMatchObject({ ok: true, modelText: "a␀b␇c␈d" });
    expect(await shell(cmd)).toMatchObject({ ok: true, modelText: `a␀b␇c␈d\n${exited}` });
  });

  it("collapses a long run of similar lines before bounding, so it is shown whole", async () => {
    const cmd = `for i in $(seq 1 2000); do echo "Downloading package $i of 2000 (sha 4f3a9c${"$"}i)"; done; echo finished`;
    const collapsed = "Downloading package 1 of 2000 (sha 4f3a9c1)\n  ... [×2000 similar lines]\nDownloading package 2000 of 2000 (sha 4f3a9c2000)\nfinished";
    // Both surfaces name the saved copy: the collapsed lines differ in their numbers.
    const yujNote =
      "[similar lines collapsed — full output available via full_path attribute]\n" +
      '<tool_result_meta collapsed="true" original_bytes="97795" original_lines="2001" full_path="<log>"/>';
    const yujSaved = (r: { modelText: string }) => r.modelText.replace(/ full_path="[^"]*"/, ' full_path="<log>"');
    expect(yujSaved(await bash(cmd))).toBe(`${collapsed}\n${yujNote}`);
    const saved = (r: { modelText: string }) => r.modelText.replace(/full output: \S+ \.\.\.\]/, "full output: <log> ...]");
    const reference = "[... 97795 bytes shown with similar lines collapsed; full output: <log> ...]";
    expect(saved(await shell(cmd))).toBe(`${collapsed}\n${reference}\n${exited}`);
  });

  it("leaves short output line for line", async () => {
    const cmd = "for i in 1 2 3 4 5; do echo line $i; done";
    expect(await bash(cmd)).toMatchObject({ ok: true, modelText: "line 1\nline 2\nline 3\nline 4\nline 5" });
  });

  it("cleans a background job's output the same way", async () => {
    const started = await call(shellTool, { command: String.raw`printf '\033[1m10%%\r100%%\033[0m\n'`, run_in_background: true });
    const id = /\bj\d+\b/.exec(started.modelText)![0];
    expect(await call(jobOutputTool, { job_id: id, wait: "exit" })).toMatchObject({ ok: true, modelText: `100%\n${exited}` });
  });
});

describe("the filters themselves", () => {
  it("keep redraws and collapse runs of three or more of a template over half of ten or more lines", () => {
    expect(keepLastRedraws("first\n\rlast\r\nx\r")).toBe("first\nlast\nx");
    const f = (n: number) => Array.from({ length: n }, (_, i) => `f ${i}`);
    expect(collapseSimilarLines(["ok", ...f(9), "", ""].join("\n"))).toBe(["ok", "f 0", "  ... [×9 similar lines]", "f 8", "", ""].join("\n"));
    // Fewer than ten lines, or no template over half of them: as written.
    expect(collapseSimilarLines(f(9).join("\n"))).toBe(f(9).join("\n"));
    const even = [...f(5), ...Array.from({ length: 5 }, (_, i) => `g.${i}`)].join("\n");
    expect(collapseSimilarLines(even)).toBe(even);
    // A run of two stays; runs of three or more collapse.
    const two = ["f 1", "f 2", "x:y", "f 3", "f 4", "f 5", "f 6", "f 7", "f 8", "a.b", "c.d"].join("\n");
    expect(collapseSimilarLines(two)).toBe(["f 1", "f 2", "x:y", "f 3", "  ... [×6 similar lines]", "f 8", "a.b", "c.d"].join("\n"));
  });
});

describe("saved full output opens with read and grep", () => {
  // Random letters: no two lines alike, so nothing collapses and the output is cut.
  const unique = "head -c 60000 /dev/urandom | base64 -w 76; echo needle-at-end";

  it("Yuj bash: full_path is readable and searchable", async () => {
    const res = await bash(unique);
    const full = /full_path="([^"]+)"/.exec(res.modelText)![1]!;
    expect(full.startsWith(path.join(t.ctx.sessionDir, "jobs"))).toBe(true);
    const total = (await fsp.readFile(full, "utf8")).split("\n").length - 1;
    expect(await call(readTool, { path: full, offset: total - 1 })).toMatchObject({ ok: true, modelText: `${total}: needle-at-end` });
    expect((await call(grepTool, { pattern: "needle-at-end", path: full })).modelText).toBe(
      `<search_result tool="grep" total="1" shown="1" page="1" next_page="0" pattern="needle-at-end" scope="${full}">\n` +
        `${total}:needle-at-end\n</search_result>`,
    );
  });

  it("Chord shell: the saved output path is readable and searchable", async () => {
    const res = await shell(unique);
    const full = /full output: (\S+) \.\.\.\]/.exec(res.modelText)![1]!;
    const total = (await fsp.readFile(full, "utf8")).split("\n").length - 1;
    expect(await call(chordReadTool, { path: full, offset: total })).toMatchObject({ ok: true, modelText: `READ_RESULT lines=${total}-${total} total=${total}\nneedle-at-end\n` });
    expect(await call(chordGrepTool, { pattern: "needle-at-end", paths: [full] })).toMatchObject({ ok: true, modelText: `${full}:${total}:needle-at-end` });
  });

  it("a result cut by the size bound is saved in the session's tool-output folder, which read opens", async () => {
    const saved = path.join(t.ctx.sessionDir, "tool-output", "call_9.txt");
    await fsp.mkdir(path.dirname(saved), { recursive: true });
    await fsp.writeFile(saved, "head\nmiddle\ntail\n");
    expect(await call(readTool, { path: saved, offset: 1, limit: 1 })).toMatchObject({
      ok: true,
      modelText: `2: middle\n<system-reminder>Read returned the first 1 lines of ${saved}. The file is longer — re-read with a higher limit or a specific offset to see more.</system-reminder>`,
    });
  });
});
