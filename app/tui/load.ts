// Loads the TUI's modules the way start-up and memory want them loaded: the
// session's first (run.ts), then the view's (mount.ts: Ink, React, App) once
// the first frame is on the terminal.
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
//   tens of MB before collecting it. A heap allowed to grow 10% past what is
//   live keeps RSS near the live size. Measured in bench/tui.ts: with 5,000
//   cards 145 MiB instead of 153, over 150 turns +35 MiB instead of +53, echo
//   unchanged. --optimize-for-size saved more memory but also disables
//   optimisations: keystroke echo went from 14 to 23 ms.

import { setFlagsFromString } from "node:v8";

type RunModule = typeof import("./run.js");
type ViewModule = typeof import("./mount.js");

export function loadTui(): Promise<RunModule> {
  return import("./run.js");
}

export async function loadView(): Promise<ViewModule> {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (!saved?.configurable) return import("./mount.js");
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return await import("./mount.js");
  } finally {
    Object.defineProperty(globalThis, "fetch", saved);
  }
}

/**
 * The heap's slow growth, from the first frame on: set before it, it makes
 * start-up (loading and compiling the TUI, the first render: a heap growing
 * from nothing) collect again and again on its way up.
 */
export function tightenHeap(): void {
  setFlagsFromString("--heap-growing-percent=10");
}
