// /export: the conversation written out for the user. Markdown is the
// transcript as read (each card a section); JSON is the record a program
// reads: the conversation's messages as the model got them and every event
// of the session's trace. Written atomically; an existing file is replaced.

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { atomicWriteSync } from "../core/atomic-write.js";
import type { HistoryItem } from "../core/history.js";
import type { Card, SessionView } from "../core/reducer.js";

/** The Markdown transcript of the view's cards. Pure. */
function markdownTranscript(view: SessionView): string {
  const title = `# yuj session ${view.sessionId ?? ""}`.trimEnd();
  const about = [view.model && `model: ${view.model}`, view.profile && `profile: ${view.profile}`, view.cwd && `directory: ${view.cwd}`].filter(Boolean);
  const parts = [title, about.length ? about.map((a) => `- ${a}`).join("\n") : "", ...view.cards.map(cardMarkdown)];
  return `${parts.filter((p) => p !== "").join("\n\n")}\n`;
}

function cardMarkdown(card: Card): string {
  switch (card.kind) {
    case "user":
      return `## User\n\n${card.text}`;
    case "assistant":
      return `## Assistant\n\n${card.text}`;
    case "notice":
      return `> **${card.level}:** ${card.text.split("\n").join("\n> ")}`;
    case "job":
      return `### Job ${card.jobId}: ${card.command} (${card.how})${card.tail ? `\n\n${fence(card.tail)}` : ""}${card.outputFile ? `\n\nFull output: ${card.outputFile}` : ""}`;
    case "tool": {
      const head = `### Tool: ${card.name}${card.summary ? ` — ${card.summary}` : ""} (${card.status})`;
      const args = card.argsText ? `\n\nArguments:\n\n${fence(card.argsText)}` : "";
      const result = card.modelText ? `\n\nResult:\n\n${fence(card.modelText)}` : "";
      return `${head}${args}${result}`;
    }
  }
}

/** A code fence longer than any run of backticks inside. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}\n${text.replace(/\n$/, "")}\n${f}`;
}

export interface ExportInputs {
  view: SessionView;
  history: readonly HistoryItem[];
  /** The session's trace, one event a line. */
  traceFile: string;
  cwd: string;
  path?: string;
  json: boolean;
}

/** Writes the export; the path written, or throws with what went wrong. */
export function writeExport(x: ExportInputs): string {
  const name = x.path ?? `yuj-${x.view.sessionId ?? "session"}.${x.json ? "json" : "md"}`;
  const file = isAbsolute(name) ? name : resolve(join(x.cwd, name));
  const text = x.json ? jsonExport(x) : markdownTranscript(x.view);
  mkdirSync(dirname(file), { recursive: true });
  atomicWriteSync(file, text, { mode: 0o600 });
  return file;
}

function jsonExport(x: ExportInputs): string {
  const events = existsSync(x.traceFile)
    ? readFileSync(x.traceFile, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as unknown];
          } catch {
            return [];
          }
        })
    : [];
  return `${JSON.stringify({ sessionId: x.view.sessionId, model: x.view.model, messages: x.history, events }, null, 1)}\n`;
}
