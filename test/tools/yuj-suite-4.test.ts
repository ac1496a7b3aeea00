// The Yuj surface against the harness tests of its reference (tools, output
// shaping, dispatch), each call through the real dispatcher on real files in
// a fresh project: the exact text the model reads.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await s?.cleanup();
  s = await guardedSession(adjust);
};
beforeEach(() => fresh());
afterEach(() => s.cleanup());

/** What the model reads of `cat FILE` once FILE holds `lines` (a saved log's path as `<log>`). */
async function catOf(lines: string[]): Promise<string> {
  await s.put({ "out.log": lines.join("\n") + "\n" });
  const r = await s.call("bash", { cmd: "cat out.log" });
  expect(r.ok).toBe(true);
  return r.modelText.replace(/ full_path="[^"]*"/, ' full_path="<log>"');
}

/** The lines after output whose similar lines were collapsed: where all of them are. */
const savedNote = (lines: string[]) =>
  "[similar lines collapsed — full output available via full_path attribute]\n" +
  `<tool_result_meta collapsed="true" original_bytes="${Buffer.byteLength(lines.join("\n") + "\n")}" original_lines="${lines.length}" full_path="<log>"/>`;

// Large enough (over half of the 16 KiB shown whole) for similar lines to
// collapse, small enough to be shown whole when nothing collapses.
const RUN = 300;
const letters = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + (Math.floor(i / 26) % 26));

describe("similar lines: one line template over half the output collapses, rare lines stay", () => {
  it("a test run's PASSED lines collapse to the first, the count of the whole run and the last; FAILED lines and the summary stay", async () => {
    const passed = Array.from({ length: RUN }, (_, i) => `tests/test_foo.py::test_${String(i).padStart(3, "0")} PASSED  [${Math.floor((i * 100) / RUN)}%]`);
    const failed = ["FAILED tests/test_foo.py::test_broken - AssertionError", "FAILED tests/test_foo.py::test_other - ValueError"];
    const header = ["===== test session starts =====", `collected ${RUN + 2} items`, ""];
    const footer = ["", `===== 2 failed, ${RUN} passed =====`];
    const all = [...header, ...passed, ...failed, ...footer];
    expect(await catOf(all)).toBe(
      [...header, passed[0], `  ... [×${RUN} similar lines]`, passed[RUN - 1], ...failed, ...footer, savedNote(all)].join("\n"),
    );
  });

  it("lines that differ in names as well as numbers are one template (compiler warnings), the errors stay", async () => {
    const warnings = Array.from({ length: RUN }, (_, i) => `src/${letters(i)}.c:${i * 10}: warning: unused variable`);
    const errors = ["src/main.c:5: error: undefined reference to 'foo'", "src/main.c:12: error: incompatible types"];
    expect(await catOf([...warnings, ...errors])).toBe(
      [warnings[0], `  ... [×${RUN} similar lines]`, warnings[RUN - 1], ...errors, savedNote([...warnings, ...errors])].join("\n"),
    );
  });

  it("a blank line ends a run: two groups collapse each on its own", async () => {
    const a = Array.from({ length: RUN / 2 }, (_, i) => `tests/test_a.py::test_${i} PASSED  [${i % 50}%]`);
    const b = Array.from({ length: RUN / 2 }, (_, i) => `tests/test_b.py::test_${i} PASSED  [${50 + (i % 50)}%]`);
    expect(await catOf([...a, "", ...b])).toBe(
      [a[0], `  ... [×${RUN / 2} similar lines]`, a.at(-1), "", b[0], `  ... [×${RUN / 2} similar lines]`, b.at(-1), savedNote([...a, "", ...b])].join("\n"),
    );
  });

  it("a listing with no template over half of its lines is shown line for line", async () => {
    const dirs = Array.from({ length: RUN / 2 }, (_, i) => `drwxr-xr-x  2 syd syd  4096 Apr 12 16:48 dir${i}`);
    const files = Array.from({ length: RUN / 2 }, (_, i) => `-rw-r--r--  1 syd syd   ${100 + i} Apr 12 16:48 .file${i}`);
    const listing = [...dirs, ...files];
    expect(await catOf(listing)).toBe(listing.join("\n"));
  });

  it("a smaller [output].max_output_chars is the bound: thirty PASSED lines collapse under 200 characters", async () => {
    await fresh((c) => {
      c.output.max_output_chars = 200;
    });
    const passed = Array.from({ length: 30 }, (_, i) => `tests/test_foo.py::test_${String(i).padStart(3, "0")} PASSED  [${i}%]`);
    expect(await catOf(["collected 30 items", "", ...passed])).toBe(["collected 30 items", "", passed[0], "  ... [×30 similar lines]", passed[29]].join("\n"));
  });

  it("ten lines well inside the bound are shown as written", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `tests/test_foo.py::test_${i} PASSED  [${String(i).padStart(2)}%]`);
    expect(await catOf(lines)).toBe(lines.join("\n"));
  });

  it("identical lines collapse first, each run to one line with its count", async () => {
    const a = "tests/test_foo.py::test_a PASSED  [ 1%]";
    const b = "tests/test_foo.py::test_b PASSED  [ 2%]";
    expect(await catOf([...Array(5).fill(a), ...Array(5).fill(b)])).toBe(`${a} [×5]\n${b} [×5]`);
  });
});

describe("a result over [output].max_output_chars", () => {
  const marker = /\n\[\.\.\. (\d+) chars omitted \((\d+) lines\); full output \((\d+) chars\) saved to (\S+) — read or grep it for the rest \.\.\.\]\n/;

  it("one line of 100,000 characters is still cut to the bound, saying how many characters were left out", async () => {
    await s.put({ "transcript.log": "x".repeat(100_000) });
    const r = await s.call("read", { path: "transcript.log" });
    const m = marker.exec(r.modelText)!;
    expect(m).not.toBeNull();
    expect(r.modelText.length).toBeLessThanOrEqual(80_000 + 200);
    expect(Number(m[1]) + r.modelText.length - m[0].length).toBe("1: ".length + 100_000);
    expect(m[2]).toBe("1");
  });

  it("a few lines each longer than the bound are cut to it too", async () => {
    await s.put({ "wide.log": Array.from({ length: 5 }, () => "y".repeat(50_000)).join("\n") });
    const r = await s.call("read", { path: "wide.log" });
    expect(r.modelText).toMatch(marker);
    expect(r.modelText.length).toBeLessThanOrEqual(80_000 + 200);
    expect(r.modelText.startsWith("1: yyy")).toBe(true);
    expect(r.modelText.endsWith("yyy")).toBe(true);
  });
});
