// Published list prices of well-known models, in US dollars per million
// tokens, for /stats' cost estimate. A model not listed has no estimate
// (never a guess). Cache writes are priced as ordinary input.

import type { Usage } from "./events.js";

interface Price {
  input: number;
  cachedInput: number;
  output: number;
}

/** By model id prefix; the longest matching prefix wins (`gpt-5-mini` before `gpt-5`). */
const PRICES: ReadonlyArray<readonly [prefix: string, price: Price]> = [
  ["claude-opus-4", { input: 15, cachedInput: 1.5, output: 75 }],
  ["claude-sonnet-4", { input: 3, cachedInput: 0.3, output: 15 }],
  ["claude-3-7-sonnet", { input: 3, cachedInput: 0.3, output: 15 }],
  ["claude-3-5-sonnet", { input: 3, cachedInput: 0.3, output: 15 }],
  ["claude-haiku-4", { input: 1, cachedInput: 0.1, output: 5 }],
  ["claude-3-5-haiku", { input: 0.8, cachedInput: 0.08, output: 4 }],
  ["gpt-5", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gpt-5-mini", { input: 0.25, cachedInput: 0.025, output: 2 }],
  ["gpt-5-nano", { input: 0.05, cachedInput: 0.005, output: 0.4 }],
  ["gpt-4.1", { input: 2, cachedInput: 0.5, output: 8 }],
  ["gpt-4.1-mini", { input: 0.4, cachedInput: 0.1, output: 1.6 }],
  ["gpt-4o", { input: 2.5, cachedInput: 1.25, output: 10 }],
  ["gpt-4o-mini", { input: 0.15, cachedInput: 0.075, output: 0.6 }],
  ["o3", { input: 2, cachedInput: 0.5, output: 8 }],
  ["o4-mini", { input: 1.1, cachedInput: 0.275, output: 4.4 }],
];

function priceOf(model: string): Price | undefined {
  let best: readonly [string, Price] | undefined;
  for (const entry of PRICES) if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}

/** The cost of `usage` on `model` in dollars, or undefined when its price is not known. Input counts the whole prompt, cached part included. */
export function costOf(model: string | undefined, usage: Usage): number | undefined {
  const price = model ? priceOf(model) : undefined;
  if (!price) return undefined;
  const fresh = Math.max(0, usage.inputTokens - usage.cachedTokens);
  return (fresh * price.input + usage.cachedTokens * price.cachedInput + usage.outputTokens * price.output) / 1_000_000;
}
