// Stands in for Ink's build/measure-text.js in the bundle (scripts/build.mjs
// swaps the module): the same measurement, with a bounded cache. A frame
// measures a few dozen texts, so a few thousand entries keep every text on
// screen and the recent frames hot.

import widestLine from "widest-line";
import { boundedCache } from "./bounded-cache.js";

interface Dimensions {
  width: number;
  height: number;
}

const cache = boundedCache<Dimensions>(4000);

export default function measureText(text: string): Dimensions {
  if (text.length === 0) return { width: 0, height: 0 };
  const hit = cache.get(text);
  if (hit) return hit;
  let height = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) height++;
  const dimensions = { width: widestLine(text), height };
  cache.set(text, dimensions);
  return dimensions;
}
