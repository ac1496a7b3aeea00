// The headless transcript: events printed as readable text as they arrive.
// Model text streams to stdout; problems go to stderr.

import type { CoreEvent } from "../core/events.js";
import { parseArgsJson } from "../core/json-depth.js";

export interface TextSink {
  out(text: string): void;
  err(text: string): void;
}

const PREVIEW_LINES = 8;

export function createTextRenderer(sink: TextSink): (event: CoreEvent) => void {
  let atLineStart = true;
  // A blank line separates the model's words from the tool output above them.
  let afterTool = false;
  const out = (text: string) => {
    if (!text) return;
    sink.out(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) out("\n");
    out(`${text}\n`);
  };

  return (event) => {
    switch (event.type) {
      case "session_started":
        line(
          `yuj ${event.version} · ${event.demo ? "DEMO MODEL (scripted, offline)" : `${event.provider} ${event.model}`}` +
            ` · profile ${event.profile} · session ${event.sessionId}`,
        );
        line(`cwd ${event.cwd}`);
        break;
      case "user_message":
        line(`\n> ${event.text}\n`);
        break;
      case "assistant_text_delta":
        if (afterTool) line("");
        afterTool = false;
        out(terminalSafe(event.text));
        break;
      case "tool_call_finished":
        line(`\n• ${event.name} ${summarizeArgs(event.args)}`);
        break;
      case "tool_result":
        line(indent(preview(terminalSafe(event.viewText)), event.ok ? "  " : "  ! "));
        afterTool = true;
        break;
      case "retry":
        if (!atLineStart) out("\n");
        sink.err(`yuj: retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}\n`);
        break;
      case "notice":
        line(`[${event.level}] ${event.text}`);
        break;
      case "jobs_orphans_found":
        sink.err(`yuj: ended ${event.count} process group(s) or process(es) left by an earlier yuj that was killed: ${event.detail.join("; ")}\n`);
        break;
      case "job_promoted":
        line(`  ↳ continues in the background as job ${event.jobId}`);
        break;
      case "config_untrusted":
        sink.err(`yuj: ${event.text}\n`);
        break;
      case "error":
        if (!atLineStart) out("\n");
        sink.err(`yuj: ${event.message}\n`);
        break;
      case "run_finished":
        line(`\n${finishLine(event)}`);
        break;
      default:
        break;
    }
  };
}

function finishLine(e: Extract<CoreEvent, { type: "run_finished" }>): string {
  switch (e.reason) {
    case "done":
      return `✓ done${e.message ? `: ${e.message}` : ""}`;
    case "answered":
      return "✓ finished (the model answered without further tool calls)";
    case "max_turns":
      return `✗ stopped: ${e.message ?? "turn limit reached"}`;
    case "cancelled":
      return "✗ cancelled";
    case "approval_required":
      return `⏸ paused: approval required for ${e.message ?? "a call"}`;
    case "input_required":
      return `? waiting for your answer${e.message ? `: ${e.message}` : ""}`;
    case "error":
      return `✗ failed: ${e.message ?? "error"}`;
  }
}

/** The key argument of a call, or its compact JSON. */
export function summarizeArgs(raw: string): string {
  const parsed = parseArgsJson(raw || "{}");
  if (!parsed) return clip(raw, 100);
  const args = parsed.value;
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const a = args as Record<string, unknown>;
    for (const key of ["cmd", "command", "path", "pattern", "patterns", "paths", "message"]) {
      if (typeof a[key] === "string") return clip(String(a[key]).split("\n")[0]!, 100);
    }
  }
  return clip(JSON.stringify(args), 100);
}

/** Control characters are shown, never executed by the terminal. */
export function terminalSafe(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, (c) =>
    c === "\r" ? "" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

function preview(text: string): string {
  const lines = text.replace(/\n+$/, "").split("\n");
  if (lines.length <= PREVIEW_LINES) return lines.join("\n");
  return [...lines.slice(0, PREVIEW_LINES), `… ${lines.length - PREVIEW_LINES} more lines`].join("\n");
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
