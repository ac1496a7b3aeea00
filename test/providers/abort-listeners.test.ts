// A long run sends many requests under one abort signal. Each request must
// leave no listener behind on it: they pile up, and past ten Node writes a
// MaxListenersExceededWarning to the terminal, over the UI.

import { getEventListeners } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import type { ProviderName } from "../../core/providers/index.js";
import { providerFor, request, run, serverPool } from "./helpers.js";

const pool = serverPool();
afterEach(() => pool.closeAll());

describe.each<ProviderName>(["anthropic", "openai", "openai-chat"])("%s requests under one signal", (name) => {
  test("leave no abort listener behind", async () => {
    const turns = Array.from({ length: 12 }, (_, i) => ({ text: `answer ${i}` }));
    const server = await pool.start({ turns });
    const provider = await providerFor(name, server);
    const run_ = new AbortController();
    for (let i = 0; i < 12; i++) {
      const out = await run(provider, request(), run_.signal);
      expect(out.error).toBeUndefined();
    }
    expect(getEventListeners(run_.signal, "abort").length).toBe(0);
  });
});
