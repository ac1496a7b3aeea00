// Loading the view (Ink, React, App) hides `fetch` only while Ink's layout
// engine loads: the global is back afterwards, the very same function, so
// providers' HTTP clients see no difference.

import { describe, expect, it } from "vitest";
import { loadView } from "../../app/tui/load.js";

describe("loadView", () => {
  it("puts the global fetch back exactly as it was", async () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "fetch");
    const mod = await loadView();
    expect(typeof mod.mountApp).toBe("function");
    expect(Object.getOwnPropertyDescriptor(globalThis, "fetch")).toEqual(before);
    expect(globalThis.fetch).toBe(before?.value);
  });
});
