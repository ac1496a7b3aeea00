// The headless transcript: events printed as readable text as they arrive.
// Model text streams to stdout; problems go to stderr. Every piece of text
// from the model, a tool, the session or the file system is made safe first
// (core/text/safe.ts): nothing printed here can act on the terminal.

import { describeAttachment } from "../core/mentions.js";
import type { CoreEvent, EventOf } from "../core/events.js";
import { displayText } from "../core/display-text.js";
import { parseArgsJson } from "../core/json-depth.js";
import { oneLine, safeOutput, safeText } from "../core/text/safe.js";
import { createSafeStream } from "../core/text/stream.js";
import { truncate } from "../core/text/width.js";

export interface TextSink {
  out(text: string): void;
  err(text: string): void;
  /**
   * True while an operator answers on stdin (`--input jsonl`): what waits
   * for it is shown, with the call to name. Without one, an ask pauses the
   * run and the pause says what to do instead.
   */
  operated?: () => boolean;
}

const PREVIEW_LINES = 8;

export function createTextRenderer(sink: TextSink): (event: CoreEvent) => void {
  let atLineStart = true;
  // A blank line separates the model's words from the tool output above them.
  let afterTool = false;
  // The model's words arrive in pieces; a piece may end inside a \r\n.
  let words = createSafeStream();
  const out = (text: string) => {
    if (!text) return;
    sink.out(text);
    atLineStart = text.endsWith("\n");
  };
  const endWords = () => {
    out(words.flush());
    words = createSafeStream();
  };
  const line = (text: string) => {
    endWords();
    if (!atLineStart) out("\n");
    out(`${text}\n`);
  };
  const err = (text: string) => {
    endWords();
    if (!atLineStart) out("\n");
    sink.err(`yuj: ${safeText(text)}\n`);
  };

  return (event) => {
    switch (event.type) {
      case "session_started":
        line(
          safeText(
            `yuj ${event.version} · ${event.demo ? "DEMO MODEL (scripted, offline)" : `${event.provider} ${event.model}`}` +
              ` · profile ${event.profile} · session ${event.sessionId}`,
          ),
        );
        line(`cwd ${oneLine(event.cwd)}`);
        break;
      case "user_message":
        line(`\n> ${safeText(event.text)}`);
        for (const a of event.attachments ?? []) line(`  attached ${oneLine(describeAttachment(a))}`);
        line("");
        break;
      case "assistant_text_delta":
        if (afterTool) line("");
        afterTool = false;
        out(words.push(event.text));
        break;
      case "tool_call_finished":
        line(`\n• ${oneLine(event.name)} ${summarizeArgs(event.args)}`);
        break;
      case "tool_result":
        line(indent(preview(safeOutput(resultText(event))), event.ok ? "  " : "  ! "));
        afterTool = true;
        break;
      case "retry":
        err(`retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`);
        break;
      case "notice":
        line(`[${event.level}] ${safeText(event.text)}`);
        break;
      case "jobs_orphans_found":
        err(`ended ${event.count} process group(s) or process(es) left by an earlier yuj that was killed: ${event.detail.join("; ")}`);
        break;
      case "approval_requested": {
        if (!sink.operated?.()) break;
        const id = oneLine(event.callId);
        line(`\n⏸ approval required (call ${id}): ${oneLine(event.summary)}`);
        if (event.reason) line(`  why: ${oneLine(event.reason)}`);
        line(`  answer on stdin: {"type":"approval_answer","callId":${oneLine(JSON.stringify(event.callId))},"decision":"allow_once"} (or allow_always, reject, reject_with_message with a "message")`);
        break;
      }
      case "question_asked":
        if (!sink.operated?.()) break;
        line(`\n? the model asks (call ${oneLine(event.callId)}): ${safeText(event.question)}`);
        line(`  answer on stdin: {"type":"question_answer","callId":${oneLine(JSON.stringify(event.callId))},"answer":"…"}`);
        break;
      case "loop_changed":
        line(`\n↻ ${safeText(loopLine(event))}`);
        break;
      case "job_promoted":
        line(`  ↳ continues in the background as job ${oneLine(event.jobId)}`);
        break;
      case "config_untrusted":
        err(event.text);
        break;
      case "error":
        err(event.message);
        break;
      case "run_finished":
        line(`\n${safeText(finishLine(event))}`);
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

/** The key argument of a call (its first line), or its compact JSON; one safe line. */
function summarizeArgs(raw: string): string {
  const parsed = parseArgsJson(raw || "{}");
  if (!parsed) return clip(raw);
  const args = parsed.value;
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const a = args as Record<string, unknown>;
    for (const key of ["cmd", "command", "path", "pattern", "patterns", "paths", "message"]) {
      if (typeof a[key] === "string") return clip(String(a[key]).split("\n")[0]!);
    }
  }
  return clip(JSON.stringify(args));
}

/** What a result shows: its display as text; an earlier version's view text; else the model's text. */
function resultText(e: Extract<CoreEvent, { type: "tool_result" }>): string {
  return e.display ? displayText(e.display) : (e.viewText ?? e.modelText);
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

/** One safe line of at most 100 columns. */
function clip(s: string): string {
  return truncate(oneLine(s), 100);
}

/** Loop mode's changes, one line each, for the text output. */
function loopLine(e: EventOf<"loop_changed">): string {
  const at = `iteration ${e.iteration} of ${e.maxIterations}`;
  if (!e.on) return e.ended === "confirmed" ? `loop finished: report confirmed (${at})` : e.ended === "limit" ? `loop stopped at the iteration limit (${at})` : "loop off";
  if (e.report !== undefined) return `loop: done's report waits for confirmation (${at}): {"type":"loop_answer","decision":"confirm"} or "continue" with a "message"`;
  return e.iteration === 0 ? `loop on${e.target ? `: ${e.target}` : ""}` : `loop ${at}`;
}
