// The rules /rules lists and removes: the ones "allow always" stored for the
// session (kept in its state) and the ones in the project's
// ./.yuj/config.toml. A removal takes the rule out of force at once and out
// of where it is kept, so it stays gone after a resume or a restart.

import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import type { SessionSettings } from "../core/controller/settings.js";
import { updateProjectConfig } from "../core/config/project-write.js";
import { projectConfigPath, type Env } from "../core/paths.js";
import type { McpService } from "../core/mcp/manager.js";
import type { PermissionGate } from "../core/permissions/gate.js";
import type { Rule } from "../core/permissions/types.js";
import type { ListedRule } from "../core/reducer-session.js";
import type { SessionState } from "../core/session-state.js";

type StoredRule = { tool?: unknown; pattern?: unknown; action?: unknown };

export function sessionSettings(gate: PermissionGate, state: SessionState, cwd: string, env: Env, mcp: Pick<McpService, "setEnabled">): SessionSettings {
  const projectFile = projectConfigPath(cwd);
  return {
    setYolo: (on) => gate.setYolo?.(on),
    setMcpServer: (server, enabled) => mcp.setEnabled(server, enabled),
    rules: () => ({
      rules: [...state.sessionRules.map((r) => listed(r, "session")), ...projectRules(projectFile).map((r) => listed(r, "project"))],
      projectFile,
    }),
    removeRule(rule) {
      const wanted: Rule = { tool: rule.tool, action: rule.action, ...(rule.pattern === undefined ? {} : { pattern: rule.pattern }) };
      if (rule.scope === "session") {
        return gate.removeRule?.(wanted, "session") ? undefined : `no session rule ${describe(rule)}; /rules lists them`;
      }
      if (!projectRules(projectFile).some((r) => same(r, wanted))) return `no rule ${describe(rule)} in ${projectFile}; /rules lists them`;
      try {
        updateProjectConfig(cwd, env, (current) => ({ permissions: { rules: withoutFirst(storedRules(current), wanted) } }));
      } catch (err) {
        return `could not remove the rule from ${projectFile}: ${(err as Error).message}`;
      }
      gate.removeRule?.(wanted, "project");
      return undefined;
    },
  };
}

function listed(r: Rule, scope: ListedRule["scope"]): ListedRule {
  return { scope, tool: r.tool, action: r.action, ...(r.pattern === undefined ? {} : { pattern: r.pattern }) };
}

function describe(r: ListedRule): string {
  return `${r.action} ${r.tool}${r.pattern === undefined ? "" : ` ${JSON.stringify(r.pattern)}`}`;
}

function same(a: Rule, b: Rule): boolean {
  return a.tool === b.tool && a.action === b.action && (a.pattern ?? "*") === (b.pattern ?? "*");
}

function storedRules(table: Record<string, unknown>): StoredRule[] {
  const rules = (table.permissions as { rules?: unknown } | undefined)?.rules;
  return Array.isArray(rules) ? (rules as StoredRule[]) : [];
}

function withoutFirst(rules: StoredRule[], wanted: Rule): StoredRule[] {
  const at = rules.findIndex((r) => { const rule = asRule(r); return rule !== undefined && same(rule, wanted); });
  return at < 0 ? rules : [...rules.slice(0, at), ...rules.slice(at + 1)];
}

function asRule(r: StoredRule): Rule | undefined {
  if (typeof r.tool !== "string" || (r.action !== "allow" && r.action !== "ask" && r.action !== "deny")) return undefined;
  return { tool: r.tool, action: r.action, ...(typeof r.pattern === "string" ? { pattern: r.pattern } : {}) };
}

/** The project config's rules as written; a file that is missing or does not parse has none to list (start-up reports a bad one). */
function projectRules(file: string): Rule[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  try {
    return storedRules(parse(text) as Record<string, unknown>).flatMap((r) => asRule(r) ?? []);
  } catch {
    return [];
  }
}
