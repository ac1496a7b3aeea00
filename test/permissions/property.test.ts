// Randomised checks of the engine's invariants over generated tools, commands
// and rule lists. The generator is seeded, so a failure repeats; the failing
// case is printed by the assertion message.

import { describe, expect, it } from "vitest";
import { evaluate, factsOf } from "../../core/permissions/engine.js";
import { isUniversal } from "../../core/permissions/glob.js";
import { isCompound, parseShell } from "../../core/shell/index.js";
import type { Action, PermissionCall, PolicyOptions, Rule } from "../../core/permissions/types.js";
import { CHORD, YUJ } from "./support.js";

/** mulberry32: small, fast, good enough for test data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SIMPLE = ["ls", "ls -la", "rm -rf x", "git push", "git status", "echo 'a; b'", "cat f", "sudo rm y", "npm test", "echo $(rm z)", "xargs rm"];
const JOINERS = ["; ", " && ", " || ", " | ", " & ", "\n"];
const PATHS = ["a.ts", "src/a.ts", "src/secret/k.pem", "../out.txt", "/etc/passwd", "docs/read me.md"];
// The tools each shipped surface declares (a few of each kind of match value;
// the shell tool twice, so compound commands are common enough).
const CALL_TOOLS = {
  yuj: ["bash", "bash", "read", "write", "edit", "apply_patch", "udiff", "grep", "done", "ask_user", "write_todos"],
  chord: ["shell", "shell", "read", "write", "edit", "apply_patch", "delete", "grep", "done", "question", "todo_write"],
} as const;
const RULE_TOOLS = [...new Set([...CALL_TOOLS.yuj, ...CALL_TOOLS.chord]), "*", "patch", "sh*", "?ash", "d*"];
const COMMAND_PATTERNS = ["ls *", "rm *", "git *", "echo *", "l?", "*rm*", "npm test", "cat f", "sudo *", "ls"];
const PATH_PATTERNS = ["src/*", "*.ts", "/etc/*", "docs/*", "a.ts", "src/secret/*"];

const ACTIONS: Action[] = ["allow", "ask", "deny"];

interface Case {
  call: PermissionCall;
  rules: Rule[];
  opts: PolicyOptions;
}

function generate(r: () => number): Case {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const command = () => {
    const parts = [pick(SIMPLE)];
    while (r() < 0.4 && parts.length < 4) parts.push(pick(JOINERS), pick(SIMPLE));
    return parts.join("");
  };
  const surface = r() < 0.5 ? "chord" : "yuj";
  const tool: string = pick(CALL_TOOLS[surface]);
  const args: Record<string, unknown> = {};
  if (tool === "shell") args.command = command();
  else if (tool === "bash") args.cmd = command();
  else if (tool === "delete") args.paths = [pick(PATHS), pick(PATHS)];
  else if (tool === "apply_patch") {
    args.patch = ["*** Begin Patch", `*** Add File: ${pick(PATHS)}`, "+x", `*** Delete File: ${pick(PATHS)}`, "*** End Patch"].join("\n");
  } else if (tool === "udiff") args.patch = [`--- a/${pick(PATHS)}`, `+++ b/${pick(PATHS)}`, "@@ -1 +1 @@", "-a", "+b"].join("\n");
  else if (tool === "grep") Object.assign(args, { pattern: pick(COMMAND_PATTERNS), path: pick(PATHS) });
  else args.path = pick(PATHS);
  const rules: Rule[] = [];
  const n = Math.floor(r() * 7);
  for (let i = 0; i < n; i++) {
    const patterns = [...COMMAND_PATTERNS, ...PATH_PATTERNS, "*", undefined];
    const pattern = pick(patterns);
    rules.push({ tool: pick(RULE_TOOLS), ...(pattern === undefined ? {} : { pattern }), action: pick(ACTIONS), source: `r${i}` });
  }
  const opts: PolicyOptions = { ...(surface === "chord" ? CHORD : YUJ), yolo: r() < 0.3 };
  return { call: { tool, args, cwd: "/repo" }, rules, opts };
}

const CASES = 4000;
const show = (c: Case) => JSON.stringify(c);

describe("engine invariants", () => {
  it("denies only by a deny rule or the Chord default", () => {
    const r = rng(42);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      const d = evaluate(c.call, c.rules, c.opts);
      if (d.rule) expect(c.rules, show(c)).toContain(d.rule);
      if (d.action !== "deny") continue;
      const byRule = d.rule?.action === "deny";
      const byDefault = c.opts.surface === "chord" && d.reason.includes("(chord default: deny)");
      const byDelegateRule = c.call.tool === "cancel" && /^cancel is unavailable: delegate is denied by rule/.test(d.reason);
      expect(byRule || byDefault || byDelegateRule, `${show(c)} → ${d.reason}`).toBe(true);
    }
  });

  it("never lets a command-specific allow cover a compound command", () => {
    const r = rng(7);
    let compounds = 0;
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      const cmd = (c.call.args.command ?? c.call.args.cmd) as string | undefined;
      if (cmd === undefined || !(isCompound(cmd) || parseShell(cmd).substitutions.length)) continue;
      compounds++;
      const d = evaluate(c.call, c.rules, c.opts);
      if (d.rule?.action === "allow") expect(isUniversal(d.rule.pattern), `${show(c)} → ${d.reason}`).toBe(true);
    }
    expect(compounds).toBeGreaterThan(200);
  });

  it("is not moved by a rule for another tool", () => {
    const r = rng(99);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      const before = evaluate(c.call, c.rules, c.opts).action;
      const extra: Rule = { tool: "unrelated_tool", action: before === "deny" ? "allow" : "deny" };
      expect(evaluate(c.call, [...c.rules, extra], c.opts).action, show(c)).toBe(before);
    }
  });

  it("denies everything after a final * deny", () => {
    const r = rng(3);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      expect(evaluate(c.call, [...c.rules, { tool: "*", action: "deny" }], c.opts).action, show(c)).toBe("deny");
    }
  });

  it("lets YOLO only turn asks into allows for ordinary tools", () => {
    const r = rng(11);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      if (factsOf(c.opts.tools, c.call.tool).guarded) continue;
      const plain = evaluate(c.call, c.rules, { ...c.opts, yolo: false }).action;
      const yolo = evaluate(c.call, c.rules, { ...c.opts, yolo: true }).action;
      expect(yolo, show(c)).toBe(plain === "ask" ? "allow" : plain);
    }
  });

  it("makes measurement runs deny exactly what would ask", () => {
    const r = rng(5);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      const opts = { ...c.opts, yolo: false };
      const plain = evaluate(c.call, c.rules, opts).action;
      const measured = evaluate(c.call, c.rules, { ...opts, measurement: true }).action;
      expect(measured, show(c)).toBe(plain === "ask" ? "deny" : plain);
    }
  });

  it("always reports match values and a one-line reason", () => {
    const r = rng(8);
    for (let i = 0; i < CASES; i++) {
      const c = generate(r);
      const d = evaluate(c.call, c.rules, c.opts);
      expect(d.matchValues.length, show(c)).toBeGreaterThan(0);
      expect(d.reason.length).toBeGreaterThan(0);
      expect(d.reason, show(c)).not.toContain("\n");
    }
  });
});
