import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../../components/cards/markdown.js";
import { renderCard } from "../../../components/cards/render.js";
import { expectSafe, opts, plain, tool } from "./helpers.js";

beforeAll(() => loadMarkdown());

const REPORT = "## Summary\n\nFixed the **parser**.\n\n- one\n- two";

describe("long-text control tools", () => {
  // Chord's finish tool holds its report in `report`, Yuj's in `message`: each says so in its view.
  const chordDone = { view: { card: "control" as const, controlField: "report" } };

  it("done: N chars received while streaming", () => {
    const partial = `{"message": "${"x".repeat(1234)}`;
    const lines = plain(renderCard(tool("done", partial, "streaming"), opts()));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/TOOL CALL #\d+ done ⋯$/);
    expect(lines[1]).toBe(`    ${partial.length.toLocaleString("en-US")} chars received`);
  });

  it("done: the report as Markdown once finished, from the field its tool names", () => {
    for (const [args, extra] of [[{ message: REPORT }, {}], [{ report: REPORT }, chordDone]] as const) {
      const lines = plain(renderCard(tool("done", args, "ok", extra), opts()));
      expect(lines[0]).toMatch(/TOOL CALL #\d+ done ✓$/);
      expect(lines.slice(1)).toEqual(["    ## Summary", "", "    Fixed the parser.", "", "      * one", "      * two"]);
    }
    const coloured = renderCard(tool("done", { message: REPORT }, "ok"), opts({ color: true }));
    expect(coloured.join("\n")).toContain("\x1b[1mparser\x1b[22m");
    // Another field is not the report.
    expect(plain(renderCard(tool("done", { report: REPORT }, "ok"), opts())).slice(1)).toEqual(["    (no report)"]);
  });

  it("done refused: the refusal in red after the report", () => {
    const card = tool("done", { message: "Finished." }, "error", { modelText: "ERROR: done_guard: nothing has checked the last change" });
    const lines = plain(renderCard(card, opts()));
    expect(lines.slice(1, 2)).toEqual(["    Finished."]);
    expect(lines.at(-1)).toBe("    ERROR: done_guard: nothing has checked the last change");
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
