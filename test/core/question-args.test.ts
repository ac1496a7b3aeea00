import { describe, expect, it } from "vitest";
import { validateArgs } from "../../core/arg-validation.js";
import { questionSchema } from "../../tools/chord/question.js";

const exposed = ["questions"];

describe("a malformed question call", () => {
  it("names the bad item's missing field, not zod's \"Invalid input\"", () => {
    const args = JSON.stringify({ questions: [{ question: "Which one?" }] });
    for (const mode of ["off", "reject"] as const) {
      const r = validateArgs("question", args, questionSchema, { mode, exposed });
      expect(r.ok).toBe(false);
      const text = r.ok ? "" : r.text;
      expect(text).toContain("questions[0].header");
      expect(text).not.toContain("Invalid input");
    }
  });

  it("describes a single question object by its own fields", () => {
    const r = validateArgs("question", JSON.stringify({ questions: { header: "Pick" } }), questionSchema, { mode: "off", exposed });
    expect(r.ok ? "" : r.text).toContain("questions.question");
  });
});
