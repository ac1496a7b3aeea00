// Card builders and checks shared by the card tests.

import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import { expect } from "vitest";
import type { Card, ToolCardStatus } from "../../../core/reducer.js";
import type { RenderOpts } from "../../../components/cards/render.js";
import { join } from "node:path";
import { loadProfile } from "../../../core/profiles/load.js";
import { callView } from "../../../core/tool-facts.js";
import type { ToolHandler } from "../../../core/tool-types.js";
import { builtinHandlers } from "../../../tools/registry.js";

export type ToolCard = Extract<Card, { kind: "tool" }>;

export const CWD = "/repo";

export function opts(over: Partial<RenderOpts> = {}): RenderOpts {
  return { width: 80, folded: false, focused: false, cwd: CWD, color: false, ...over };
}

/** The real handlers by the names a surface exposes them under. */
function handlersOf(surface: string): ReadonlyMap<string, ToolHandler> {
  const registry = builtinHandlers();
  const byName = new Map<string, ToolHandler>();
  for (const t of loadProfile(join(import.meta.dirname, "..", "..", "..", "profiles"), surface).tools) {
    const h = registry.get(t.handler);
    if (h) byName.set(t.name, h);
  }
  return byName;
}
const YUJ = handlersOf("_base");
const CHORD = handlersOf("chord");

let seq = 100;
/**
 * A tool card as the reducer builds it from the events: the layout, the
 * summary and the preview from the tool's real handler (by the exposed
 * name; Yuj's over Chord's where both use one), none for an unknown tool.
 * Once the call is past streaming its summary and preview are known.
 */
export function tool(
  name: string,
  args: Record<string, unknown> | string,
  status: ToolCardStatus = "ok",
  extra: Partial<ToolCard> = {},
): ToolCard {
  return cardOf(YUJ.get(name) ?? CHORD.get(name), name, args, status, extra);
}

/** The same, with the Chord surface's tool of that name. */
export function chordTool(
  name: string,
  args: Record<string, unknown> | string,
  status: ToolCardStatus = "ok",
  extra: Partial<ToolCard> = {},
): ToolCard {
  return cardOf(CHORD.get(name), name, args, status, extra);
}

function cardOf(handler: ToolHandler | undefined, name: string, args: Record<string, unknown> | string, status: ToolCardStatus, extra: Partial<ToolCard>): ToolCard {
  const n = seq++;
  const argsText = typeof args === "string" ? args : JSON.stringify(args);
  const view = handler ? { card: handler.view.card, ...(handler.view.controlField ? { controlField: handler.view.controlField } : {}) } : undefined;
  const described = handler && status !== "streaming" ? callView(handler, argsText, { cwd: CWD, name }) : {};
  return {
    kind: "tool",
    num: n,
    callId: `call-${n}`,
    name,
    argsText,
    status,
    ...(view ? { view } : {}),
    ...described,
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
