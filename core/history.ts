// The conversation as the core keeps it, independent of any wire format.
// Providers translate it to their own message shapes.

import type { HostedTool } from "./providers/hosted.js";

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON text, maybe malformed). */
  args: string;
}

export type HistoryItem =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | { role: "tool"; callId: string; name: string; text: string; isError: boolean; images?: ToolImage[] }
  /**
   * A compaction: the items before it are summarised by `text`. Never sent
   * as it is; requests carry it as a user message (core/compaction.ts).
   */
  | { role: "summary"; text: string };

/**
 * An image a tool result carries to the model (view_image). The bytes live in
 * memory as base64 because every request resends the whole history; `file`
 * names the copy saved in the session directory (relative to it), which is
 * what the trace and the saved session state refer to instead of the bytes.
 */
export interface ToolImage {
  mediaType: "image/png" | "image/jpeg";
  /** The encoded image, base64. */
  data: string;
  label?: string;
  /** The saved copy, relative to the session directory. */
  file?: string;
}

/** What a request carries: summaries are turned into user text first. */
export type RequestItem = Exclude<HistoryItem, { role: "summary" }>;

/** A tool as the model is told about it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the parameters object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  system: string;
  history: RequestItem[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  /** Tools the provider runs itself (web search), declared beside the function tools. */
  hostedTools?: readonly HostedTool[];
  /** The model must call the (one) hosted tool: a request made only to run it. */
  forceHostedTool?: boolean;
  /**
   * A paused turn to resume (the content of the `paused` events so far, in
   * order): sent unchanged as the assistant message after the history.
   * Anthropic Messages only; the other APIs never pause.
   */
  resumeContent?: readonly unknown[];
}
