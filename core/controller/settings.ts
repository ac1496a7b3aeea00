// The operations that change the session itself rather than its
// conversation: YOLO on or off, its name, the permission rules listed
// and removed, and MCP servers turned on or off. Each change is saved in the session's state (or the
// project's config) before the event that reports it.

import type { Emit } from "../events.js";
import type { MainRoles } from "../orchestration/main-roles.js";
import type { OpOf } from "../ops.js";
import type { ListedRule } from "../reducer-session.js";
import type { SessionRecord } from "../session-record.js";

/** What the process running the session offers for these operations (app/ builds it over the gate and the config). */
export interface SessionSettings {
  /** YOLO in force from the next call on. */
  setYolo(on: boolean): void;
  /** The session's rules, then the project config's, in order; with the project's config file. */
  rules(): { rules: ListedRule[]; projectFile: string };
  /** Takes the rule out of force and out of where it is kept; a problem when it is not there or cannot be written. */
  removeRule(rule: ListedRule): string | undefined;
  /** The main agent's roles, on the Chord surface (the role is saved by the switch itself). */
  mainRoles?: Pick<MainRoles, "switchTo">;
  /** Turns an MCP server on or off now; a problem when there is no such server. */
  setMcpServer(server: string, enabled: boolean): string | undefined;
}

export type SettingOp = OpOf<"set_yolo"> | OpOf<"set_main_role"> | OpOf<"rename_session"> | OpOf<"list_rules"> | OpOf<"remove_rule"> | OpOf<"set_mcp_server">;

/** Applies one of the settings operations; a problem (to refuse the operation with) or undefined. */
export function applySetting(op: SettingOp, x: { record: SessionRecord; emit: Emit; settings?: SessionSettings }): string | undefined {
  const { record, emit, settings } = x;
  switch (op.type) {
    case "rename_session":
      record.state.name = op.name;
      record.save();
      emit({ type: "session_renamed", name: op.name });
      return undefined;
    case "set_yolo":
      if (!settings) return "this process does not run the session; pass --yolo to yuj resume instead";
      settings.setYolo(op.on);
      // A resumed session starts with it as it was left.
      record.state.settings.yolo = op.on;
      record.save();
      emit({ type: "yolo_changed", on: op.on });
      return undefined;
    case "set_main_role": {
      if (!settings) return "this process does not run the session";
      if (!settings.mainRoles) return "main roles belong to the Chord surface: start the session with --profile chord";
      const switched = settings.mainRoles.switchTo(op.role);
      return "problem" in switched ? switched.problem : undefined;
    }
    case "set_mcp_server": {
      if (!settings) return "this process does not run the session";
      const problem = settings.setMcpServer(op.server, op.enabled);
      if (problem !== undefined) return problem;
      // A resumed session starts its servers as the operator left them.
      record.state.mcp = { ...record.state.mcp, [op.server]: op.enabled };
      record.save();
      return undefined;
    }
    case "list_rules":
      if (!settings) return "this process does not run the session";
      emit({ type: "rules_listed", ...settings.rules() });
      return undefined;
    case "remove_rule": {
      if (!settings) return "this process does not run the session";
      const { type: _type, ...rule } = op;
      const problem = settings.removeRule(rule);
      if (problem !== undefined) return problem;
      // Session rules live in the state: saved before the listing says the rule is gone.
      if (rule.scope === "session") record.save();
      emit({ type: "rules_listed", ...settings.rules() });
      return undefined;
    }
  }
}
