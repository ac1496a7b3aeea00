// The overlays the slash commands and keys open over the transcript: the
// stats, the recent errors, the permission rules, the session picker and
// the MCP servers.

import { useMemo, type MutableRefObject, type ReactNode } from "react";
import type { Operation } from "../core/ops.js";
import type { SessionView } from "../core/reducer.js";
import type { KeyHandler } from "./Composer.js";
import { ListPanel } from "./ListPanel.js";
import { statsLines } from "./stats.js";
import type { TuiActions } from "./tui-actions.js";

export interface OverlayProps {
  overlay: "stats" | "errors" | "rules" | "sessions" | "mcp";
  view: SessionView;
  width: number;
  height: number;
  keys: MutableRefObject<KeyHandler | undefined>;
  actions?: TuiActions;
  submit(op: Operation): void;
  onClose(): void;
}

/** Errors shown in the panel: the newest this many. */
const RECENT_ERRORS = 50;

export function Overlay(p: OverlayProps): ReactNode {
  const common = { width: p.width, height: p.height, keys: p.keys, onClose: p.onClose };
  switch (p.overlay) {
    case "stats":
      return <ListPanel {...common} title="Session stats" rows={statsLines(p.view, Date.now())} empty="" />;
    case "errors":
      return <ListPanel {...common} title="Recent errors (newest last)" rows={recentErrors(p.view)} empty="No errors in this session." />;
    case "rules": {
      const rules = p.view.facts.rules;
      const rows = (rules?.list ?? []).map((r) => `${r.scope.padEnd(8)} ${r.action.padEnd(6)} ${r.tool}${r.pattern === undefined ? "" : ` ${JSON.stringify(r.pattern)}`}`);
      return (
        <ListPanel
          {...common}
          title={`Permission rules: this session's, then the project's (${rules?.projectFile ?? ".yuj/config.toml"})`}
          rows={rows}
          selectable
          empty={rules ? "No session or project rules." : "Reading the rules…"}
          onKey={{
            keys: "x",
            label: "remove the rule",
            run: (i) => {
              const rule = rules?.list[i];
              if (rule) p.submit({ type: "remove_rule", ...rule });
            },
          }}
        />
      );
    }
    case "sessions":
      return <SessionsPanel {...p} />;
    case "mcp": {
      const servers = Object.values(p.view.mcp);
      const rows = servers.map((m) => `${m.server.padEnd(16)} ${m.state.padEnd(10)} ${String(m.tools).padStart(3)} tools${m.detail ? `  ${m.detail}` : ""}`);
      return (
        <ListPanel
          {...common}
          title="MCP servers (/mcp enable|disable NAME does the same)"
          rows={rows}
          selectable
          empty="No MCP servers configured ([mcp.servers.NAME] in the config, or the project's .mcp.json)."
          onKey={{
            keys: "Enter",
            label: "turn it on / off",
            run: (i) => {
              const server = servers[i];
              if (server) p.submit({ type: "set_mcp_server", server: server.server, enabled: server.state === "disabled" });
            },
          }}
        />
      );
    }
  }
}

/** The sessions are read from disk once, when the picker opens. */
function SessionsPanel(p: OverlayProps): ReactNode {
  const common = { width: p.width, height: p.height, keys: p.keys, onClose: p.onClose };
  const sessions = useMemo(() => p.actions?.sessions() ?? [], [p.actions]);
  {
      const rows = sessions.map((s) => `${s.id}  ${s.status.padEnd(12)} ${s.title}`);
      return (
        <ListPanel
          {...common}
          title="Resume a session of this project"
          rows={rows}
          selectable
          empty="No other session in this project."
          onKey={{ keys: "Enter", label: "open it", run: (i) => sessions[i] && p.actions?.switchTo({ kind: "resume", id: sessions[i].id }) }}
        />
      );
  }
}

function recentErrors(view: SessionView): string[] {
  const rows: string[] = [];
  for (const c of view.cards) {
    if (c.kind === "notice" && c.level === "error") rows.push(`#${c.num} ${c.text}`);
    else if (c.kind === "tool" && c.status === "error") rows.push(`#${c.num} ${c.name}: ${(c.modelText ?? "").split("\n")[0]}`);
  }
  return rows.slice(-RECENT_ERRORS);
}
