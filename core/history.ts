// The conversation as the core keeps it, independent of any wire format.
// Providers translate it to their own message shapes.

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON text, maybe malformed). */
  args: string;
}

export type HistoryItem =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | { role: "tool"; callId: string; name: string; text: string; isError: boolean };

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
  history: HistoryItem[];
  tools: ToolSpec[];
  maxOutputTokens: number;
}
