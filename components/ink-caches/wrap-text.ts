// Stands in for Ink's build/wrap-text.js in the bundle (scripts/build.mjs
// swaps the module): wrapping and truncation as Ink does them, with a
// bounded cache instead of one that keeps every text ever drawn.

import cliTruncate from "cli-truncate";
import wrapAnsi from "wrap-ansi";
import { boundedCache } from "./bounded-cache.js";

type WrapType = "wrap" | "end" | "middle" | "truncate" | "truncate-end" | "truncate-middle" | "truncate-start";

const cache = boundedCache<string>(4000);

export default function wrapText(text: string, maxWidth: number, wrapType: WrapType): string {
  const key = `${maxWidth}\u0000${wrapType}\u0000${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out = text;
  if (wrapType === "wrap") {
    out = wrapAnsi(text, maxWidth, { trim: false, hard: true });
  } else if (wrapType.startsWith("truncate")) {
    const position = wrapType === "truncate-middle" ? "middle" : wrapType === "truncate-start" ? "start" : "end";
    out = cliTruncate(text, maxWidth, { position });
  }
  cache.set(key, out);
  return out;
}
