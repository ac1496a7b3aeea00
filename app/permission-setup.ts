// Builds a session's permission gate: the profile's baseline rules, the
// user's rules, the rules stored this session, the policy of the surface, and
// who answers an ask (the operator, or nobody: the run pauses).

import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ApprovalAnswer, Approver } from "../core/approvals/types.js";
import type { Emit } from "../core/events.js";
import { updateProjectConfig } from "../core/config/project-write.js";
import { writeConfigFile } from "../core/config/load.js";
import { userConfigPath } from "../core/paths.js";
import { answerKey, createPermissionGate, type PermissionGate } from "../core/permissions/gate.js";
import { loadProfileRules } from "../core/permissions/profile-rules.js";
import type { PolicyOptions, Rule } from "../core/permissions/types.js";
import { hiddenTools } from "../core/permissions/hidden.js";
import { evaluate } from "../core/permissions/engine.js";
import type { Guard } from "../core/guards/types.js";
import type { SessionState } from "../core/session-state.js";
import type { ParsedArgs } from "./args.js";
import type { Resolved } from "./session.js";
import { escapeGlob } from "../core/permissions/glob.js";
import { savedOutputRoots } from "../tools/lib/saved-output.js";

export interface GateSetup {
  resolved: Resolved;
  state: SessionState;
  emit: Emit;
  cwd: string;
  args: ParsedArgs;
  /** Who answers an ask: the operator, or nobody (the run pauses). */
  approver: Approver;
  /** The session's folder: its saved output may always be read back. */
  sessionDir?: string;
}

export function sessionRulesFor(resolved: Resolved, sessionDir?: string): Rule[] {
  const profileRules = existsSync(join(resolved.toolset.profile.dir, "permissions.toml"))
    ? loadProfileRules(resolved.toolset.profile.dir)
    : [];
  const userRules = resolved.config.permissions.rules.map((r) => ({ ...r, source: "config" }));
  return [...profileRules, ...savedOutputRules(sessionDir), ...userRules];
}

/**
 * Reading the session's saved output (a cut result, a command's log) is
 * always allowed: it is what a result told the model to read. After the
 * baseline (which asks about paths outside the project), before the user's
 * rules (which may still deny it).
 */
export function savedOutputRules(sessionDir: string | undefined): Rule[] {
  if (!sessionDir) return [];
  return savedOutputRoots(sessionDir).flatMap((root) =>
    ["read", "grep"].map((tool) => ({ tool, pattern: `${escapeGlob(root)}/*`, action: "allow" as const, source: "session" })),
  );
}

export function surfaceOf(resolved: Resolved): "yuj" | "chord" {
  return resolved.toolset.profile.name === "chord" ? "chord" : "yuj";
}

function policyFor(resolved: Resolved, args: ParsedArgs): PolicyOptions {
  return {
    surface: surfaceOf(resolved),
    yolo: resolved.config.permissions.yolo || args.yolo === true,
    measurement: args.measure === true,
    tools: resolved.toolset.catalog,
  };
}

/**
 * A guard that keeps tools the rules deny outright out of the model's list
 * (a call to one would be denied anyway; not offering it saves a turn).
 */
export function ruleHidingGuard(resolved: Resolved, args: ParsedArgs, alsoHidden: readonly string[] = []): Guard {
  const hidden = hiddenTools(resolved.toolset.tools.keys(), sessionRulesFor(resolved), policyFor(resolved, args));
  for (const name of alsoHidden) hidden.add(name);
  return { name: "permission-hidden-tools", hiddenTools: () => hidden };
}

/** Whether the rules leave a call possible (allow, or ask): a deny is the only no. */
export function rulesPermit(resolved: Resolved, args: ParsedArgs, cwd: string, tool: string, callArgs: Record<string, unknown>): boolean {
  return evaluate({ tool, args: callArgs, cwd }, sessionRulesFor(resolved), policyFor(resolved, args)).action !== "deny";
}

/**
 * The session's gate: the profile's and the user's rules, then the rules
 * stored in the session (where "allow always" adds its own); an ask goes to
 * the approver, unless the session holds the answer recorded for that call
 * (`yuj approve` / `yuj reject` before the resume).
 */
export function buildGate(setup: GateSetup): PermissionGate {
  const { resolved, state } = setup;
  const preAnswered = new Map<string, ApprovalAnswer>();
  // The request names the call that asked: the first paused call, or a call inside it (a code cell's).
  const request = state.pending?.request;
  if (state.answer && request) preAnswered.set(answerKey(request.callId, request.tool, request.summary), state.answer);
  return createPermissionGate({
    cwd: setup.cwd,
    rules: sessionRulesFor(resolved, setup.sessionDir),
    sessionRules: state.sessionRules,
    policy: policyFor(resolved, setup.args),
    approver: setup.approver,
    emit: setup.emit,
    preAnswered,
    storeProjectRule: (rule) => storeProjectRule(setup.cwd, rule, setup.emit),
    storeUserRule: (rule) => storeUserRule(rule),
  });
}

/** The rule as the config's [[permissions.rules]] holds it. */
function storedRule(rule: Rule): Record<string, string> {
  const stored: Record<string, string> = { tool: rule.tool, action: rule.action };
  if (rule.pattern !== undefined) stored.pattern = rule.pattern;
  return stored;
}

/** Appends a rule to the user config (yours, so trusted as it is), keeping the rules already there. */
function storeUserRule(rule: Rule, env: NodeJS.ProcessEnv = process.env): string {
  const file = userConfigPath(env);
  mkdirSync(dirname(file), { recursive: true });
  writeConfigFile(file, (current) => {
    const existing = (current as { permissions?: { rules?: unknown[] } }).permissions?.rules ?? [];
    return { permissions: { rules: [...existing, storedRule(rule)] } };
  });
  return file;
}

/**
 * Appends a rule to ./.yuj/config.toml, keeping the rules already there. The
 * file stays trusted when it was (the user asked for this rule); when it was
 * not, the rule waits for `yuj trust` like the file's other loosening
 * settings, and the notice says so.
 */
function storeProjectRule(cwd: string, rule: Rule, emit?: Emit): string {
  const stored = storedRule(rule);
  const write = updateProjectConfig(cwd, process.env, (current) => {
    const existing = (current as { permissions?: { rules?: unknown[] } }).permissions?.rules ?? [];
    return { permissions: { rules: [...existing, stored] } };
  });
  if (!write.trusted) {
    emit?.({
      type: "notice",
      level: "warning",
      text: `stored the rule in ${write.file}, which is not trusted: it applies from the next run once you run \`yuj trust\` there`,
    });
  }
  return write.file;
}
