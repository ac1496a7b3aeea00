// The frame grid that stands in for Ink's (components/ink-caches/output.ts):
// every frame exactly as Ink's own Output paints it, frame after frame (the
// rows it keeps from the last frame included), and the bundle using it.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import InkOutput from "../../node_modules/ink/build/output.js";
import Output from "../../components/ink-caches/output.js";

type Clip = { x1?: number; x2?: number; y1?: number; y2?: number };
type Op = ["write", number, number, string, Array<(line: string, index: number) => string>?] | ["clip", Clip] | ["unclip"];

interface Grid {
  write(x: number, y: number, text: string, options: { transformers: Array<(line: string, index: number) => string> }): void;
  clip(clip: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}

function paint(grid: Grid, ops: Op[]): { output: string; height: number } {
  for (const op of ops) {
    if (op[0] === "write") grid.write(op[1], op[2], op[3], { transformers: op[4] ?? [] });
    else if (op[0] === "clip") grid.clip(op[1]);
    else grid.unclip();
  }
  return grid.get();
}

const red = (line: string) => `\u001b[31m${line}\u001b[39m`;
const numbered = (line: string, index: number) => `${index}:${line}`;
const transcript = Array.from({ length: 30 }, (_, i) => (i % 3 ? `line ${i} \u001b[1mbold\u001b[22m and \u001b[2mdim ${"x".repeat(i)}\u001b[22m` : `wide 你好世界 ${i} 🎉`)).join("\n");

const frames: Array<[string, number, number, Op[]]> = [
  ["plain text", 20, 3, [["write", 0, 0, "hello\nworld"]]],
  ["styles and a transformer", 30, 3, [["write", 2, 1, "a \u001b[1mbold\u001b[22m word", [red]], ["write", 0, 2, "one\ntwo", [numbered]]]],
  ["wide characters, at the edge too", 10, 2, [["write", 0, 0, "你好世界"], ["write", 7, 1, "你好"]]],
  ["text past the width and below the grid", 8, 2, [["write", 3, 0, "a longer line\nsecond\nthird"]]],
  ["text starting above the grid", 10, 3, [["write", 0, -1, "gone\nalso\nstill"]]],
  ["overlapping writes", 12, 2, [["write", 0, 0, "aaaaaaaaaa"], ["write", 3, 0, "\u001b[7mXY\u001b[27m"], ["write", 1, 1, "你好"], ["write", 2, 1, "z"]]],
  [
    "a clipped transcript beside a panel",
    60,
    12,
    [["clip", { x1: 0, x2: 40, y1: 0, y2: 10 }], ["write", -2, -3, transcript], ["unclip"], ["write", 41, 0, "PANEL\n\u001b[36mrow\u001b[39m", [red]], ["write", 0, 11, "› typed\u001b[7m \u001b[27m"]],
  ],
  ["a clip the text misses", 20, 4, [["clip", { x1: 10, x2: 15, y1: 2, y2: 3 }], ["write", 0, 0, "abc"], ["write", 16, 3, "def"], ["unclip"]]],
  ["a clip on one axis", 20, 4, [["clip", { x1: 2, x2: 6 }], ["write", 0, 0, "abcdefghij\n你好世界你好"], ["unclip"], ["clip", { y1: 1, y2: 2 }], ["write", 0, 0, "r0\nr1\nr2\nr3"], ["unclip"]]],
];

describe("the frame grid", () => {
  it("paints each frame as Ink's own Output does", () => {
    for (const [what, width, height, ops] of frames) {
      expect(paint(new Output({ width, height }), ops), what).toEqual(paint(new InkOutput({ width, height }), ops));
    }
  });

  it("paints the same after frames that change a row, or nothing, or the size", () => {
    const composer = (typed: string): Op[] => [
      ["clip", { x1: 0, x2: 40, y1: 0, y2: 10 }],
      ["write", 0, -3, transcript],
      ["unclip"],
      ["write", 0, 11, `\u001b[36m› \u001b[39m${typed}\u001b[7m \u001b[27m`],
    ];
    for (const [width, typed] of [[60, "a"], [60, "ab"], [60, "ab"], [50, "ab"], [60, "你"], [60, ""]] as const) {
      expect(paint(new Output({ width, height: 12 }), composer(typed)), `${width} ${typed}`).toEqual(paint(new InkOutput({ width, height: 12 }), composer(typed)));
    }
  });

  it("replaces Ink's in the built bundle", () => {
    const dist = join(import.meta.dirname, "..", "..", "dist");
    const all = readdirSync(dist)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(dist, f), "utf8"))
      .join("\n");
    expect(all).toContain("// components/ink-caches/output.ts");
    expect(all).toContain("// components/ink-caches/widest-line.ts");
    expect(all).not.toContain("node_modules/ink/build/output.js");
  });
});
