// What the cards show of language servers: an edit's diagnostics under its
// diff (coloured by severity), a formatter report kept the same way, and the
// lsp card's header, as the lsp tool words it.

import { describe, expect, it } from "vitest";
import { renderCard } from "../../../components/cards/render.js";
import { cardHeader } from "../../../components/cards/header.js";
import { opts, plain, tool } from "./helpers.js";

const HUNKS = "@@ -4,1 +4,1 @@\n-export const n: number = 1;\n+export const n: string = 1;";
const REPORT = "Diagnostics (typescript) src/a.ts: 1 at severity error or above\n[E] 4:14 [2322] Type 'number' is not assignable to type 'string'.";
/** An edit's result as the edit tool and the after-guard leave it: the diff, the report in its note. */
const edited = (note: string) => ({
  modelText: `OK\n\n${note}`,
  display: { kind: "diff" as const, files: [{ path: "src/a.ts", op: "update" as const, hunks: HUNKS }], note: `OK\n\n${note}` },
});

describe("diagnostics in an edit card", () => {
  it("follow the diff, whole", () => {
    const lines = plain(renderCard(tool("edit", { path: "src/a.ts", old_str: "number", new_str: "string" }, "ok", edited(REPORT)), opts({ width: 100 })));
    const at = lines.findIndex((l) => l.includes("Diagnostics (typescript)"));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(0, at).some((l) => /^\s+4 \+ export const n: string = 1;/.test(l))).toBe(true);
    expect(lines[at + 1]).toMatch(/^\s+\[E\] 4:14 \[2322\] Type 'number' is not assignable to type 'string'\.$/);
  });

  it("are red for errors and yellow for warnings", () => {
    const text = `OK\n\nDiagnostics (pyright) a.py: 2 at severity warning or above\n[E] 1:1 [x] bad\n[W] 2:1 [y] odd`;
    const lines = renderCard(tool("write", { path: "a.py", content: "x\n" }, "ok", { modelText: text }), opts({ width: 100, color: true }));
    expect(lines.find((l) => l.includes("[E] 1:1"))).toContain("\x1b[31m");
    expect(lines.find((l) => l.includes("[W] 2:1"))).toContain("\x1b[33m");
  });

  it("keeps a formatter's report too", () => {
    const lines = plain(renderCard(tool("edit", { path: "src/a.ts", old_str: "a", new_str: "b" }, "ok", edited("[formatter] src/a.ts: ok\nroot: /repo")), opts({ width: 100 })));
    expect(lines.some((l) => l.includes("[formatter] src/a.ts: ok"))).toBe(true);
  });
});

describe("the lsp card's header", () => {
  const header = (args: Record<string, unknown>) => plain([cardHeader(tool("lsp", args, "ok", { modelText: "x" }), { width: 100, folded: false, cwd: "/repo", color: false })])[0];
  it("says what was asked, at the position given", () => {
    expect(header({ kind: "references", path: "src/a.ts", line: 3, character: 9 })).toMatch(/lsp find references src\/a\.ts:3:9 ✓$/);
    expect(header({ kind: "definition", path: "/repo/src/a.ts", line: 0, character: 0 })).toMatch(/lsp find definition src\/a\.ts:0:0 ✓$/);
    expect(header({ kind: "document_symbols", path: "src/a.ts" })).toMatch(/lsp document symbols src\/a\.ts ✓$/);
  });
});
