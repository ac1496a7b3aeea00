import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../../components/cards/markdown.js";
import { renderCard } from "../../../components/cards/render.js";
import { expectSafe, opts, plain, tool } from "./helpers.js";

beforeAll(() => loadMarkdown());

const REPORT = "## Summary\n\nFixed the **parser**.\n\n- one\n- two";

describe("long-text control tools", () => {
  it.each(["done", "complete", "escalate"])("%s: N chars received while streaming", (name) => {
    const partial = `{"${name === "escalate" ? "reason" : "message"}": "${"x".repeat(1234)}`;
    const lines = plain(renderCard(tool(name, partial, "streaming"), opts()));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`TOOL CALL #\\d+ ${name} ⋯$`));
    expect(lines[1]).toBe(`    ${partial.length.toLocaleString("en-US")} chars received`);
  });

  it("done: the report as Markdown once finished", () => {
    for (const key of ["message", "report"]) {
      const lines = plain(renderCard(tool("done", { [key]: REPORT }, "ok"), opts()));
      expect(lines[0]).toMatch(/TOOL CALL #\d+ done ✓$/);
      expect(lines.slice(1)).toEqual(["    ## Summary", "", "    Fixed the parser.", "", "      * one", "      * two"]);
    }
    const coloured = renderCard(tool("done", { message: REPORT }, "ok"), opts({ color: true }));
    expect(coloured.join("\n")).toContain("\x1b[1mparser\x1b[22m");
  });

  it("complete: summary and structured details", () => {
    const card = tool("complete", {
      summary: "Implemented *it*.",
      files_changed: ["src/a.ts", { path: "src/b.ts", summary: "new file" }],
      remaining_limitations: "no Windows support",
      known_risks: ["race in cache"],
      follow_up_recommended: ["add tests"],
      artifacts: [{ rel_path: "artifacts/report.md", result_type: "report" }],
    }, "ok");
    const text = plain(renderCard(card, opts())).join("\n");
    expect(text).toContain("Implemented it.");
    for (const s of [
      "Files changed", "• src/a.ts", "• src/b.ts — new file", "Remaining limitations", "• no Windows support",
      "Known risks", "• race in cache", "Follow-up recommended", "• add tests", "Artifacts",
      "• artifacts/report.md — report",
    ]) expect(text).toContain(s);
  });

  it("escalate: kind and reason; an error result in red", () => {
    const card = tool("escalate", { kind: "needs_repair", reason: "Need the **API key** policy." }, "error", {
      modelText: "ERROR: escalation limit reached",
    });
    const lines = plain(renderCard(card, opts()));
    expect(lines.slice(1, 3)).toEqual(["    kind: needs_repair", "    Need the API key policy."]);
    expect(lines.at(-1)).toBe("    ERROR: escalation limit reached");
    expect(renderCard(card, opts({ color: true })).at(-1)).toContain("\x1b[31m");
  });

  it("finished but not JSON: the raw text, safely", () => {
    const lines = renderCard(tool("done", "not json \x1b[2J", "ok"), opts());
    expectSafe(lines, 80);
    expect(plain(lines)[1]).toBe("    not json ␛[2J");
  });

  it("long reports wrap within the width", () => {
    const card = tool("done", { message: `${"lorem ipsum ".repeat(100)}\n\n\`\`\`\n${"x".repeat(300)}\n\`\`\`` }, "ok");
    for (const width of [20, 50, 120]) expectSafe(renderCard(card, opts({ width, color: true })), width);
  });
});
