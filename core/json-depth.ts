// A limit on how deeply a model's tool arguments may nest. JSON.parse copes
// with any depth, but whatever walks the value afterwards recursively does
// not: JSON.stringify (the call is sent back to the API on every later
// request), schema checks, rendering. At some thousands of levels they
// overflow the stack, and since the call is stored in the session, every
// resume then fails the same way. So arguments are measured as text before
// they are parsed, and deeper ones are refused; nothing recursive ever sees
// them. Real tool arguments nest a few levels.

export const MAX_ARGS_DEPTH = 64;

/**
 * How deeply objects and arrays nest in JSON text (0 for a scalar), counted
 * in one pass without parsing; it stops counting at `stopAt + 1`. Text that
 * is not JSON is measured all the same, brackets inside strings excepted.
 */
export function jsonNesting(text: string, stopAt = MAX_ARGS_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/** JSON.parse of tool arguments, or undefined when they are not JSON or nest deeper than MAX_ARGS_DEPTH. */
export function parseArgsJson(text: string): { value: unknown } | undefined {
  if (jsonNesting(text) > MAX_ARGS_DEPTH) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * JSON.stringify for a parsed JSON value of any depth: the same text, built
 * with a stack of its own instead of recursion. For arguments an API hands
 * over already parsed, which must become text before they can be judged.
 */
export function stringifyAnyDepth(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  type Frame = { items: unknown[]; keys?: string[]; i: number };
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (v: unknown): void => {
    if (Array.isArray(v)) {
      out.push("[");
      stack.push({ items: v, i: 0 });
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      out.push("{");
      stack.push({ items: entries.map(([, x]) => x), keys: entries.map(([k]) => k), i: 0 });
    } else {
      out.push(JSON.stringify(v) ?? "null");
    }
  };
  open(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i === top.items.length) {
      out.push(top.keys ? "}" : "]");
      stack.pop();
      continue;
    }
    if (top.i > 0) out.push(",");
    if (top.keys) out.push(JSON.stringify(top.keys[top.i]), ":");
    open(top.items[top.i++]);
  }
  return out.join("");
}
