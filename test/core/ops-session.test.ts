// The session operations' schema: each bad form is refused with a message
// that names the field and what it must be.

import { describe, expect, it } from "vitest";
import { checkOperation } from "../../core/ops.js";

const problem = (op: unknown) => {
  const checked = checkOperation(op);
  return checked.ok ? undefined : checked.problem;
};

describe("session operations", () => {
  it("take their valid forms", () => {
    for (const op of [
      { type: "set_yolo", on: true },
      { type: "rename_session", name: "parser work" },
      { type: "list_rules" },
      { type: "remove_rule", scope: "project", tool: "bash", pattern: "ls *", action: "allow" },
      { type: "edit_message", message: "old", occurrence: 1, text: "new" },
      { type: "approval_answer", decision: "allow_once", arguments: { cmd: "ls" } },
    ]) {
      expect(problem(op)).toBeUndefined();
    }
  });

  it("name what is wrong", () => {
    expect(problem({ type: "set_yolo" })).toBe("set_yolo: on is missing (a boolean)");
    expect(problem({ type: "rename_session", name: "  " })).toBe("rename_session: name is empty");
    expect(problem({ type: "remove_rule", scope: "user", tool: "bash", action: "allow" })).toBe('remove_rule: scope must be one of "session", "project"');
    expect(problem({ type: "edit_message", message: "old", text: " " })).toBe("edit_message: text is empty");
    expect(problem({ type: "approval_answer", decision: "reject", arguments: {} })).toBe("approval_answer: arguments go only with allow_once, not reject");
  });
});
