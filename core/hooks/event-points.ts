// The observer points that follow from the session's events: the app feeds
// every event through here, so the loop needs no call of its own for them.
// Only the main agent's events count (a child's rows carry its task id and
// go to its own trace; its hooks run through its own view of the service).

import type { CoreEvent } from "../events.js";
import type { HookService } from "./service.js";

export function observeEventForHooks(event: CoreEvent, hooks: HookService): void {
  if (event.agentId !== "main") return;
  switch (event.type) {
    case "session_started":
      hooks.observe("on_session_start", { cwd: event.cwd, profile: event.profile, provider: event.provider, model: event.model });
      return;
    case "approval_requested":
      hooks.observe("on_wait_confirm", { call_id: event.callId, tool: event.tool, summary: event.summary, reason: event.reason ?? null }, { tools: [event.tool] });
      return;
    case "question_asked":
      hooks.observe("on_wait_question", { call_id: event.callId, question: event.question });
      return;
    case "error":
      hooks.observe("on_agent_error", { message: event.message, code: event.code }, { failed: true }, { errorKind: event.code });
      return;
    case "run_finished":
      // A run that hit its turn limit ended on an error of its own (no error event says so).
      if (event.reason === "max_turns") {
        hooks.observe("on_agent_error", { message: event.message ?? "", code: "max_turns" }, { failed: true }, { errorKind: "max_turns" });
      }
      hooks.observe("on_idle", { reason: event.reason, message: event.message ?? null }, { failed: event.reason === "error" });
      return;
    default:
      return;
  }
}
