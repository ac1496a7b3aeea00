import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../core/permissions/engine.js";
import { hiddenTools } from "../../core/permissions/hidden.js";
import { loadProfileRules, ProfileRulesError } from "../../core/permissions/profile-rules.js";
import type { Rule } from "../../core/permissions/types.js";
import { call, CHORD, rule, shell } from "./support.js";

const CHORD_DIR = fileURLToPath(new URL("../../profiles/chord", import.meta.url));

function profileWith(text: string | undefined): string {
  const dir = join(mkdtempSync(join(tmpdir(), "yuj-rules-")), "myprofile");
  mkdirSync(dir);
  if (text !== undefined) writeFileSync(join(dir, "permissions.toml"), text);
  return dir;
}

const loadError = (text: string): string => {
  try {
    loadProfileRules(profileWith(text));
  } catch (err) {
    expect(err).toBeInstanceOf(ProfileRulesError);
    return (err as Error).message;
  }
  throw new Error("expected an error");
};

describe("loadProfileRules", () => {
  it("reads the rules in order, with the profile as their source", () => {
    const dir = profileWith('[[rules]]\ntool = "*"\naction = "allow"\n\n[[rules]]\ntool = "shell"\npattern = "rm *"\naction = "ask"\n');
    expect(loadProfileRules(dir)).toEqual([
      { tool: "*", action: "allow", source: "profile myprofile" },
      { tool: "shell", pattern: "rm *", action: "ask", source: "profile myprofile" },
    ]);
  });

  it("gives no rules when the profile has no file", () => {
    expect(loadProfileRules(profileWith(undefined))).toEqual([]);
    expect(loadProfileRules(profileWith(""))).toEqual([]);
  });

  it("names an unknown action", () => {
    expect(loadError('[[rules]]\ntool = "shell"\naction = "allow"\n[[rules]]\ntool = "x"\naction = "permit"\n')).toMatch(
      /permissions\.toml: rules\[1\]\.action: unknown action "permit" \(use one of allow, ask, deny\)$/,
    );
  });

  it("names an unknown field, in a rule or at the top", () => {
    expect(loadError('[[rules]]\ntool = "shell"\npatern = "x"\naction = "allow"\n')).toMatch(
      /rules\[0\]: unknown field "patern" \(the fields allowed here are tool, pattern, action\)/,
    );
    expect(loadError('default = "deny"\n')).toMatch(/\(top level\): unknown field "default"/);
  });

  it("names a missing field and a TOML syntax error", () => {
    expect(loadError('[[rules]]\ntool = "shell"\n')).toMatch(/rules\[0\]\.action: required field is missing/);
    expect(loadError("[[rules]\n")).toMatch(/permissions\.toml: TOML syntax error at line 1/);
  });
});

describe("the Chord baseline", () => {
  const baseline = loadProfileRules(CHORD_DIR);
  const act = (c: Parameters<typeof evaluate>[0], rules: Rule[] = baseline) => evaluate(c, rules, CHORD).action;

  it("is the documented list", () => {
    expect(baseline.map((r) => [r.tool, r.pattern ?? "", r.action])).toEqual([
      ["*", "", "allow"],
      ["delete", "", "ask"],
      ["read", "/*", "ask"],
      ["read", "~*", "ask"],
      ["view_image", "/*", "ask"],
      ["view_image", "~*", "ask"],
      ["write", "/*", "ask"],
      ["write", "~*", "ask"],
      ["edit", "/*", "ask"],
      ["edit", "~*", "ask"],
      ["delete", "/*", "ask"],
      ["delete", "~*", "ask"],
      ["apply_patch", "/*", "ask"],
      ["apply_patch", "~*", "ask"],
      ["shell", "*", "allow"],
      ["shell", "rm *", "ask"],
      ["shell", "rmdir *", "ask"],
      ["shell", "git push *", "ask"],
      ["shell", "git reset *", "ask"],
      ["shell", "git clean *", "ask"],
      ["shell", "git checkout -- *", "ask"],
      ["shell", "git rebase *", "ask"],
      ["shell", "sudo *", "ask"],
      ["shell", "chmod *", "ask"],
      ["shell", "chown *", "ask"],
      ["shell", "curl *", "ask"],
      ["shell", "wget *", "ask"],
      ["handoff", "", "deny"],
      ["delegate", "", "deny"],
      ["question", "", "allow"],
      ["done", "", "allow"],
    ]);
    expect(baseline.every((r) => r.source === "profile chord")).toBe(true);
  });

  it.each<[string, string]>([
    ["ls -la", "allow"],
    ["npm test", "allow"],
    ["git status", "allow"],
    ["git push origin main", "ask"],
    ["git push", "ask"],
    ["rm -rf build", "ask"],
    ["rmdir x", "ask"],
    ["git reset --hard", "ask"],
    ["git clean -fd", "ask"],
    ["git checkout -- a.ts", "ask"],
    ["git checkout main", "allow"],
    ["git rebase -i HEAD~3", "ask"],
    ["sudo apt install x", "ask"],
    ["chmod +x a", "ask"],
    ["chown me a", "ask"],
    ["curl https://x.io", "ask"],
    ["wget https://x.io", "ask"],
    ["make && rm -rf dist", "ask"],
    ["ls | xargs rm", "ask"], // the segment behind the xargs wrapper is `rm`
    ["sudo -u me true; ls", "ask"],
    ["echo 'rm x'; ls", "allow"],
  ])("shell %j → %s", (command, expected) => {
    expect(act(shell(command))).toBe(expected);
  });

  it("allows most tools, asks for delete, and hides the tools it denies outright", () => {
    expect(act(call("read", { path: "a" }))).toBe("allow");
    expect(act(call("write", { path: "a", content: "" }))).toBe("allow");
    expect(act(call("job_list", {}))).toBe("allow");
    expect(act(call("delete", { paths: ["a"], reason: "x" }))).toBe("ask");
    expect(act(call("question", { questions: [] }))).toBe("allow");
    expect(act(call("done", { report: "x" }))).toBe("allow");
    // Its baseline denies handoff and delegate outright: they are hidden until a rule turns them on.
    expect([...hiddenTools(["shell", "read", "delegate", "handoff", "done"], baseline, CHORD)].sort()).toEqual(["delegate", "handoff"]);
  });

  it("lets user rules appended after it extend it and win", () => {
    const user = (r: Rule): Rule => ({ ...r, source: "/x/.yuj/config.toml" });
    const withUser = [...baseline, user(rule("shell", "git push *", "allow")), user(rule("shell", "docker *", "deny"))];
    expect(act(shell("git push"), withUser)).toBe("allow");
    const d = evaluate(shell("docker run x"), withUser, CHORD);
    expect(d.reason).toBe('denied by rule {tool="shell", pattern="docker *", action="deny"} from /x/.yuj/config.toml');
    const lockdown = [...baseline, user(rule("*", undefined, "deny"))];
    expect(act(shell("ls"), lockdown)).toBe("deny");
    expect(act(call("done"), lockdown)).toBe("deny");
    const delegation = [...baseline, user(rule("delegate", undefined, "allow"))];
    expect(act(call("delegate", { agent_type: "x" }), delegation)).toBe("allow");
    expect(act(call("cancel"), delegation)).toBe("allow");
  });

  it("under YOLO still lets done run and keeps delegation off", () => {
    const yolo = { ...CHORD, yolo: true };
    expect(evaluate(call("done"), baseline, yolo).action).toBe("allow");
    expect(evaluate(shell("rm -rf build"), baseline, yolo).action).toBe("allow");
    expect(evaluate(call("delegate", { agent_type: "x" }), baseline, yolo).action).toBe("deny");
  });

  it("under YOLO never lets a broad allow grant handoff, delegate, cancel or done: each needs a rule naming it", () => {
    const yolo = { ...CHORD, yolo: true };
    const broad = [...baseline, rule("*", undefined, "allow", "/x/.yuj/config.toml")];
    for (const tool of ["handoff", "delegate", "cancel"]) expect(evaluate(call(tool, { plan_path: "p.md", agent_type: "x", target_task_id: "task-1" }), broad, yolo).action, tool).toBe("deny");
    // done keeps its own baseline rule, which names it.
    expect(evaluate(call("done", { report: "r" }), broad, yolo).action).toBe("allow");
    expect([...hiddenTools(["handoff", "delegate", "cancel", "shell"], broad, yolo)].sort()).toEqual(["cancel", "delegate", "handoff"]);
    // A rule naming handoff turns it on under YOLO; ask only makes it available (it never prompts), with YOLO or without.
    for (const action of ["allow", "ask"] as const) {
      const named = [...broad, rule("handoff", undefined, action)];
      expect(evaluate(call("handoff", { plan_path: "p.md" }), named, yolo).action, action).toBe("allow");
      expect(evaluate(call("handoff", { plan_path: "p.md" }), named, CHORD).action, action).toBe("allow");
    }
    // An ask on delegate still asks under YOLO.
    expect(evaluate(call("delegate", { agent_type: "x" }), [...broad, rule("delegate", undefined, "ask")], yolo).action).toBe("ask");
  });
});
