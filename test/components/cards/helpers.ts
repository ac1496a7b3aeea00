// Card builders and checks shared by the card tests.

import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import { expect } from "vitest";
import type { Card, ToolCardStatus } from "../../../core/reducer.js";
import type { RenderOpts } from "../../../components/cards/render.js";

export type ToolCard = Extract<Card, { kind: "tool" }>;

export const CWD = "/repo";

export function opts(over: Partial<RenderOpts> = {}): RenderOpts {
  return { width: 80, folded: false, focused: false, cwd: CWD, color: false, ...over };
}

let seq = 100;
export function tool(
  name: string,
  args: Record<string, unknown> | string,
  status: ToolCardStatus = "ok",
  extra: Partial<ToolCard> = {},
): ToolCard {
  const n = seq++;
  return {
    kind: "tool",
    num: n,
    callId: `call-${n}`,
    name,
    argsText: typeof args === "string" ? args : JSON.stringify(args),
    status,
    ...extra,
  };
}

export const numbered = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `${from + i}: line ${from + i}`).join("\n");

export const plain = (lines: string[]) => lines.map((l) => stripAnsi(l));

export const hasAnsi = (lines: string[]) => lines.some((l) => l.includes("\x1b"));

/** Every row fits and nothing but SGR colour codes reaches the terminal. */
export function expectSafe(lines: string[], width: number): void {
  for (const l of lines) {
    expect(stringWidth(l), JSON.stringify(l)).toBeLessThanOrEqual(width);
    const noSgr = l.replace(/\x1b\[[0-9;]*m/g, "");
    expect(noSgr, JSON.stringify(l)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  }
}
