import { describe, expect, it } from "vitest";
import { hiddenTools } from "../../core/permissions/hidden.js";
import type { Rule } from "../../core/permissions/types.js";
import { CHORD, rule, YUJ } from "./support.js";

const TOOLS = ["shell", "read", "edit", "apply_patch", "write", "delete", "job_output", "question", "done"];
const hidden = (rules: Rule[], opts = CHORD, tools = TOOLS) => [...hiddenTools(tools, rules, opts)].sort();

describe("hiddenTools", () => {
  it("hides a tool whose last name-matching rule is a wildcard deny", () => {
    const all = rule("*", undefined, "allow");
    expect(hidden([all, rule("job_output", undefined, "deny")])).toEqual(["job_output"]);
    expect(hidden([all, rule("job_output", "*", "deny")])).toEqual(["job_output"]);
    expect(hidden([all, rule("job_*", undefined, "deny")])).toEqual(["job_output"]);
    expect(hidden([all, rule("read", "secret/*", "deny")])).toEqual([]);
    expect(hidden([rule("job_output", undefined, "deny"), all])).toEqual([]);
    expect(hidden([all, rule("read", undefined, "deny"), rule("read", "src/*", "allow")])).toEqual([]);
    expect(hidden([all, rule("job_output", undefined, "ask")])).toEqual([]);
  });

  it("hides everything under a final * deny, on both surfaces", () => {
    expect(hidden([rule("*", undefined, "allow"), rule("*", undefined, "deny")])).toEqual([...TOOLS].sort());
    expect(hidden([rule("*", undefined, "deny")], YUJ, ["bash", "read", "done"])).toEqual(["bash", "done", "read"]);
  });

  it("hides a Chord tool no rule names (every call would be denied), but not on Yuj", () => {
    expect(hidden([rule("shell", "git *", "allow")], CHORD, ["shell", "read"])).toEqual(["read"]);
    expect(hidden([], YUJ, ["bash", "read", "done"])).toEqual([]);
  });

  it("follows the edit family coupling", () => {
    expect(hidden([rule("*", undefined, "allow"), rule("edit", undefined, "deny")])).toEqual(["apply_patch", "edit"]);
    expect(hidden([rule("*", undefined, "allow"), rule("edit", undefined, "deny"), rule("apply_patch", undefined, "allow")])).toEqual(["edit"]);
    expect(hidden([rule("*", undefined, "allow"), rule("patch", undefined, "deny")])).toEqual(["apply_patch", "edit"]);
  });

  it("hides the finish tool when denied, shows it on allow or ask", () => {
    const all = rule("*", undefined, "allow");
    expect(hidden([all, rule("done", undefined, "deny")])).toEqual(["done"]);
    expect(hidden([all, rule("done", "*", "deny")])).toEqual(["done"]);
    expect(hidden([all, rule("done", undefined, "ask")])).toEqual([]);
  });

  it("under YOLO, hides the finish tool when only a broad rule allowed it", () => {
    const yolo = { ...CHORD, yolo: true };
    expect(hidden([rule("*", undefined, "allow")], yolo)).toEqual(["done"]);
    expect(hidden([rule("*", undefined, "allow"), rule("done", undefined, "allow")], yolo)).toEqual([]);
  });
});
