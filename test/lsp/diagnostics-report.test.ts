// The diagnostics line an edit's result gets: the severity setting hides the
// text of less severe diagnostics but says how many there are, as the
// reference's report counts warnings beside errors.

import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../core/lsp/protocol.js";
import { diagnosticsReport } from "../../tools/lib/lsp-text.js";

const at = (line: number, severity: number, message: string): Diagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity: severity as Diagnostic["severity"],
  message,
});
const report = (diagnostics: Diagnostic[], min: "error" | "warning" | "hint") =>
  diagnosticsReport("app.py", { kind: "ok", server: "pyright", ms: 1, value: { diagnostics, settled: true } }, min, 20);

describe("diagnostics after an edit", () => {
  const mixed = [at(0, 1, "error text"), at(1, 2, "warning text"), at(2, 2, "another warning"), at(3, 4, "a hint")];

  it.each<[string, Diagnostic[], "error" | "warning" | "hint", string]>([
    ["errors only: the warnings and the hint are counted, not shown", mixed, "error", "Diagnostics (pyright) app.py: 1 at severity error or above (2 warnings, 1 hint below it)\n[E] 1:1 error text"],
    ["warnings too: only the hint is counted", mixed, "warning", "Diagnostics (pyright) app.py: 3 at severity warning or above (1 hint below it)\n[E] 1:1 error text\n[W] 2:1 warning text\n[W] 3:1 another warning"],
    ["everything shown: nothing counted", mixed, "hint", "Diagnostics (pyright) app.py: 4 at severity hint or above\n[E] 1:1 error text\n[W] 2:1 warning text\n[W] 3:1 another warning\n[H] 4:1 a hint"],
    ["no error, one warning", [at(1, 2, "warning text")], "error", "Diagnostics (pyright) app.py: none at severity error or above (1 warning below it)"],
    ["a clean file", [], "error", "Diagnostics (pyright) app.py: none at severity error or above"],
  ])("%s", (_name, diagnostics, min, expected) => {
    expect(report(diagnostics, min)).toBe(expected);
  });
});
