import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { boundOutput } from "../../core/output-bound.js";

const dir = () => mkdtempSync(join(tmpdir(), "yuj-bound-"));

describe("boundOutput", () => {
  it("passes short text through and saves nothing", () => {
    expect(boundOutput("abc", { maxChars: 10, headRatio: 0.4, saveDir: dir(), name: "c1" })).toEqual({ text: "abc" });
  });

  it("keeps whole head and tail lines and says exactly what was cut", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n");
    const saveDir = dir();
    const out = boundOutput(text, { maxChars: 500, headRatio: 0.4, saveDir, name: "call/1" });
    const [head, marker, ...tail] = out.text.split(/\n(?=\[\.\.\.)|(?<=\.\.\.\])\n/);
    expect(head!.startsWith("line 1\n")).toBe(true);
    expect(out.text.endsWith("line 1000")).toBe(true);
    const m = /\[\.\.\. (\d+) chars omitted \((\d+) lines\); full output \((\d+) chars\) saved to (.+) — read or grep it for the rest \.\.\.\]/.exec(out.text)!;
    expect(m).not.toBeNull();
    const keptHead = head!;
    const keptTail = tail.join("\n");
    expect(Number(m[1])).toBe(text.length - keptHead.length - keptTail.length);
    expect(Number(m[3])).toBe(text.length);
    expect(m[4]).toBe(join(saveDir, "call_1.txt"));
    expect(readFileSync(out.fullOutputPath!, "utf8")).toBe(text);
    expect(marker).toBeDefined();
  });
});
