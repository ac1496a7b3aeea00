// Loads the TUI's modules the way start-up and memory want them loaded.
//
// - Ink's layout engine (yoga) instantiates its WebAssembly from a data: URL,
//   and it fetches that URL whenever a global `fetch` exists. Node's fetch is
//   undici, which then loads and compiles about 70 ms of HTTP client before
//   the first frame only to decode a string it could decode itself. With
//   `fetch` hidden for the import, yoga decodes the bytes directly. The
//   property is put back exactly as it was (a lazy function that loads undici
//   on first call), so the model providers' HTTP clients are unaffected.
// - A full-screen session lives for hours and allocates steadily (a frame per
//   streamed delta); V8's default old-space growth lets garbage pile up to
//   tens of MB before collecting it. Optimising for size keeps the heap close
//   to what is live (measured in bench/tui.ts: RSS with 5,000 cards and
//   growth over a 150-turn session) without a cost the keystroke echo shows.

import { setFlagsFromString } from "node:v8";

type RunModule = typeof import("./run.js");

export async function loadTui(): Promise<RunModule> {
  setFlagsFromString("--optimize-for-size");
  const saved = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (!saved?.configurable) return import("./run.js");
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return await import("./run.js");
  } finally {
    Object.defineProperty(globalThis, "fetch", saved);
  }
}
