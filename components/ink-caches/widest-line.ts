// Stands in for the widest-line package where Ink's painter measures each
// text node (scripts/build.mjs swaps it there): the same measurement, with a
// bounded cache, so the transcript's text is not measured again every frame.

import widestLine from "widest-line";
import { boundedCache } from "./bounded-cache.js";

const cache = boundedCache<number>(4000);

export default function cachedWidestLine(text: string): number {
  let w = cache.get(text);
  if (w === undefined) {
    w = widestLine(text);
    cache.set(text, w);
  }
  return w;
}
