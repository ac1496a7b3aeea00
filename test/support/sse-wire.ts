// One scenario turn rendered as each API streams it (the event sequences and
// JSON shapes the real services send), plus their error bodies and the
// request checks they make. Used by sse-server.ts.

import { callArgumentsText, callId, chunkText, type ScenarioTurn } from "../../core/providers/scenario.js";

export type WireApi = "anthropic" | "responses" | "chat";

/** One server-sent event; `event` is omitted for Chat Completions, which sends bare `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

export function formatSse(ev: SseEvent): string {
  return (ev.event ? `event: ${ev.event}\n` : "") + `data: ${ev.data}\n\n`;
}

const TEXT_CHUNK = 5;
const ARGS_CHUNK = 7;
const DEFAULT_USAGE = { input: 24, output: 8, cached: 0 };

function usageOf(turn: ScenarioTurn) {
  return turn.usage ?? DEFAULT_USAGE;
}

function calls(turn: ScenarioTurn, turnNo: number) {
  return turn.tool_calls.map((c, i) => ({ id: callId(c, turnNo, i), name: c.name, args: callArgumentsText(c) }));
}

export function anthropicEvents(turn: ScenarioTurn, turnNo: number, model: string): SseEvent[] {
  const out: SseEvent[] = [];
  const push = (type: string, body: Record<string, unknown> = {}) =>
    out.push({ event: type, data: JSON.stringify({ type, ...body }) });
  const usage = usageOf(turn);
  push("message_start", {
    message: {
      id: `msg_test_${turnNo}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        // The API counts cache reads apart from input_tokens.
        input_tokens: usage.input - usage.cached,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cached,
        output_tokens: 1,
        service_tier: "standard",
      },
    },
  });
  let index = 0;
  if (turn.text) {
    push("content_block_start", { index, content_block: { type: "text", text: "" } });
    push("ping");
    for (const piece of chunkText(turn.text, TEXT_CHUNK)) {
      push("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    }
    push("content_block_stop", { index });
    index++;
  } else {
    push("ping");
  }
  for (const call of calls(turn, turnNo)) {
    push("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
    push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    for (const piece of chunkText(call.args, ARGS_CHUNK)) {
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    push("content_block_stop", { index });
    index++;
  }
  push("message_delta", {
    delta: { stop_reason: turn.tool_calls.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  push("message_stop");
  return out;
}

export function responsesEvents(turn: ScenarioTurn, turnNo: number, model: string): SseEvent[] {
  const out: SseEvent[] = [];
  let seq = 0;
  const push = (type: string, body: Record<string, unknown>) =>
    out.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...body }) });
  const usage = usageOf(turn);
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id: `resp_test_${turnNo}`,
    object: "response",
    created_at: 1_760_000_000 + turnNo,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    store: false,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    usage: withUsage
      ? {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cached },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        }
      : null,
  });
  push("response.created", { response: response("in_progress", [], false) });
  push("response.in_progress", { response: response("in_progress", [], false) });
  const done: unknown[] = [];
  let outputIndex = 0;
  if (turn.text) {
    const id = `msg_test_${turnNo}`;
    const part = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });
    const item = (status: string, content: unknown[]) => ({ id, type: "message", status, content, role: "assistant" });
    const at = { item_id: id, output_index: outputIndex, content_index: 0 };
    push("response.output_item.added", { output_index: outputIndex, item: item("in_progress", []) });
    push("response.content_part.added", { ...at, part: part("") });
    for (const piece of chunkText(turn.text, TEXT_CHUNK)) {
      push("response.output_text.delta", { ...at, delta: piece, logprobs: [] });
    }
    push("response.output_text.done", { ...at, text: turn.text, logprobs: [] });
    push("response.content_part.done", { ...at, part: part(turn.text) });
    const finished = item("completed", [part(turn.text)]);
    push("response.output_item.done", { output_index: outputIndex, item: finished });
    done.push(finished);
    outputIndex++;
  }
  for (const [i, call] of calls(turn, turnNo).entries()) {
    const id = `fc_test_${turnNo}_${i}`;
    const item = (status: string, args: string) => ({
      id,
      type: "function_call",
      status,
      arguments: args,
      call_id: call.id,
      name: call.name,
    });
    push("response.output_item.added", { output_index: outputIndex, item: item("in_progress", "") });
    for (const piece of chunkText(call.args, ARGS_CHUNK)) {
      push("response.function_call_arguments.delta", { item_id: id, output_index: outputIndex, delta: piece });
    }
    push("response.function_call_arguments.done", { item_id: id, output_index: outputIndex, arguments: call.args });
    const finished = item("completed", call.args);
    push("response.output_item.done", { output_index: outputIndex, item: finished });
    done.push(finished);
    outputIndex++;
  }
  push("response.completed", { response: response("completed", done, true) });
  return out;
}

export function chatEvents(turn: ScenarioTurn, turnNo: number, model: string): SseEvent[] {
  const out: SseEvent[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    out.push({
      data: JSON.stringify({
        id: `chatcmpl-test${turnNo}`,
        object: "chat.completion.chunk",
        created: 1_760_000_000 + turnNo,
        model,
        system_fingerprint: "fp_test",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        usage: null,
      }),
    });
  chunk({ role: "assistant", content: "", refusal: null }, null);
  for (const piece of chunkText(turn.text, TEXT_CHUNK)) chunk({ content: piece }, null);
  for (const [index, call] of calls(turn, turnNo).entries()) {
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }, null);
    for (const piece of chunkText(call.args, ARGS_CHUNK)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
    }
  }
  chunk({}, turn.tool_calls.length ? "tool_calls" : "stop");
  const usage = usageOf(turn);
  out.push({
    data: JSON.stringify({
      id: `chatcmpl-test${turnNo}`,
      object: "chat.completion.chunk",
      created: 1_760_000_000 + turnNo,
      model,
      system_fingerprint: "fp_test",
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cached },
      },
    }),
  });
  out.push({ data: "[DONE]" });
  return out;
}

/** An error reported inside an already started stream, as each API does it. */
export function streamErrorEvent(api: WireApi, kind = "overloaded_error", message = "Overloaded"): SseEvent {
  if (api === "anthropic") {
    return { event: "error", data: JSON.stringify({ type: "error", error: { type: kind, message } }) };
  }
  if (api === "responses") {
    return { event: "error", data: JSON.stringify({ type: "error", code: kind, message, param: null, sequence_number: 999 }) };
  }
  return { data: JSON.stringify({ error: { message, type: kind, param: null, code: null } }) };
}

const ANTHROPIC_ERRORS: Record<number, [string, string]> = {
  400: ["invalid_request_error", "Invalid request"],
  401: ["authentication_error", "invalid x-api-key"],
  403: ["permission_error", "Your API key does not have permission to use the specified resource."],
  404: ["not_found_error", "Not found"],
  429: ["rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
  500: ["api_error", "Internal server error"],
  503: ["api_error", "Service unavailable"],
  529: ["overloaded_error", "Overloaded"],
};

const OPENAI_ERRORS: Record<number, [string, string | null, string]> = {
  400: ["invalid_request_error", null, "Invalid request"],
  401: ["invalid_request_error", "invalid_api_key", "Incorrect API key provided."],
  403: ["invalid_request_error", "unsupported_country_region_territory", "Country, region, or territory not supported"],
  404: ["invalid_request_error", "model_not_found", "The model does not exist or you do not have access to it."],
  429: ["requests", "rate_limit_exceeded", "Rate limit reached for requests"],
  500: ["server_error", null, "The server had an error while processing your request. Sorry about that!"],
  503: ["server_error", null, "The engine is currently overloaded, please try again later"],
};

/** An HTTP error body in the API's own shape. */
export function errorBody(anthropic: boolean, status: number, message?: string): string {
  if (anthropic) {
    const [type, text] = ANTHROPIC_ERRORS[status] ?? ["api_error", `HTTP ${status}`];
    return JSON.stringify({ type: "error", error: { type, message: message ?? text }, request_id: "req_test" });
  }
  const [type, code, text] = OPENAI_ERRORS[status] ?? ["server_error", null, `HTTP ${status}`];
  return JSON.stringify({ error: { message: message ?? text, type, param: null, code } });
}

// Request bodies are whatever the client sent; read them loosely.
type Json = Record<string, any>;

/** How many assistant turns the request's conversation already holds. */
export function assistantTurns(api: WireApi, body: Json): number {
  if (api === "responses") {
    let turns = 0;
    let inAssistant = false;
    for (const item of (body.input ?? []) as Json[]) {
      const assistant = item.role === "assistant" || item.type === "function_call";
      if (assistant && !inAssistant) turns++;
      inAssistant = assistant;
    }
    return turns;
  }
  return ((body.messages ?? []) as Json[]).filter((m) => m.role === "assistant").length;
}

/** The API's complaint when a tool call has no result in the request, else undefined. */
export function missingToolResults(api: WireApi, body: Json): string | undefined {
  if (api === "responses") {
    const input = (body.input ?? []) as Json[];
    const answered = new Set(input.filter((i) => i.type === "function_call_output").map((i) => i.call_id));
    const call = input.find((i) => i.type === "function_call" && !answered.has(i.call_id));
    return call ? `No tool output found for function call ${call.call_id}.` : undefined;
  }
  const messages = (body.messages ?? []) as Json[];
  for (const [i, message] of messages.entries()) {
    if (message.role !== "assistant") continue;
    if (api === "anthropic") {
      const ids = (Array.isArray(message.content) ? message.content : [])
        .filter((b: Json) => b.type === "tool_use")
        .map((b: Json) => b.id);
      const next = messages[i + 1];
      const given = new Set(
        (next?.role === "user" && Array.isArray(next.content) ? next.content : [])
          .filter((b: Json) => b.type === "tool_result")
          .map((b: Json) => b.tool_use_id),
      );
      const missing = ids.filter((id: string) => !given.has(id));
      if (missing.length) {
        return (
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
        );
      }
    } else {
      const ids = ((message.tool_calls ?? []) as Json[]).map((c) => c.id);
      const given = new Set<string>();
      for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) given.add(messages[j]!.tool_call_id);
      const missing = ids.filter((id) => !given.has(id));
      if (missing.length) {
        return (
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each " +
          `'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`
        );
      }
    }
  }
  return undefined;
}
