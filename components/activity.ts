// The status bar's account of what is happening now, in the user's words:
// waiting for your approval or answer, running a command (and for how long),
// waiting for or receiving from the model, a message queued behind the run,
// or that the last turn was cancelled. Pure: view state and clock in, text out.

import type { SessionView } from "../core/reducer.js";
import { oneLine } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import { formatBytes, formatElapsed, since } from "./theme.js";

export interface Activity {
  text: string;
  tone: "busy" | "idle" | "attention" | "cancelled";
}

/** Longest command shown; the card has the rest. */
const COMMAND_CHARS = 40;

export function activityOf(view: SessionView, now: number, queued: number): Activity {
  const queue = queued > 0 ? ` · ${queued} message${queued === 1 ? "" : "s"} queued` : "";
  if (view.pendingApproval) return { text: `waiting for your approval${queue}`, tone: "attention" };
  if (view.pendingQuestion) return { text: `waiting for your answer${queue}`, tone: "attention" };
  const job = Object.values(view.jobs).find((j) => !j.background && j.status === "running");
  if (job) {
    const command = truncate(oneLine(job.label ?? job.command), COMMAND_CHARS);
    return { text: `running ${command} ${formatElapsed(since(job.startedAt, now))}${queue}`, tone: "busy" };
  }
  const tool = [...view.cards].reverse().find((c) => c.kind === "tool" && c.status === "running");
  if (tool?.kind === "tool") return { text: `running ${oneLine(tool.name)}${queue}`, tone: "busy" };
  const { request } = view;
  const elapsed = formatElapsed(since(request.startedAt, now));
  const retry = request.retries > 0 ? ` (retry ${request.retries})` : "";
  if (request.state === "waiting") return { text: `waiting for the model ${elapsed}${retry}${queue}`, tone: "busy" };
  if (request.state === "streaming") {
    return { text: `receiving from the model ${formatBytes(request.bytesReceived)} ${elapsed}${retry}${queue}`, tone: "busy" };
  }
  if (queued > 0) return { text: queue.slice(3), tone: "busy" };
  if (view.finish?.reason === "cancelled" && view.status === "finished") return { text: "CANCELLED", tone: "cancelled" };
  return { text: "idle", tone: "idle" };
}
