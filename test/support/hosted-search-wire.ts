// A model turn that runs the provider's hosted web search, in each API's own
// stream events: Anthropic's server_tool_use and web_search_tool_result
// blocks (the query streamed as input_json_delta, a cited text after), and
// OpenAI Responses' web_search_call item (with action.sources, as asked for
// with include) followed by a message whose text carries url_citation
// annotations.

import type { SseEvent } from "./sse-wire.js";

export interface SearchTurn {
  query: string;
  results: Array<{ title: string; url: string }>;
  answer: string;
  /** Anthropic: the search fails with this error code instead. */
  errorCode?: string;
}

export function anthropicSearchTurn(t: SearchTurn, model: string): SseEvent[] {
  const out: SseEvent[] = [];
  const push = (type: string, body: Record<string, unknown> = {}) => out.push({ event: type, data: JSON.stringify({ type, ...body }) });
  push("message_start", {
    message: { id: "msg_search", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  push("content_block_start", { index: 0, content_block: { type: "server_tool_use", id: "srvtoolu_01search", name: "web_search", input: {} } });
  const json = JSON.stringify({ query: t.query });
  push("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: json.slice(0, 7) } });
  push("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: json.slice(7) } });
  push("content_block_stop", { index: 0 });
  const content = t.errorCode
    ? { type: "web_search_tool_result_error", error_code: t.errorCode }
    : t.results.map((r) => ({ type: "web_search_result", title: r.title, url: r.url, encrypted_content: "EqgfCioIARgBIiQ3YTAw", page_age: "April 18, 2023" }));
  push("content_block_start", { index: 1, content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_01search", content } });
  push("content_block_stop", { index: 1 });
  push("content_block_start", { index: 2, content_block: { type: "text", text: "", citations: [] } });
  push("content_block_delta", { index: 2, delta: { type: "text_delta", text: t.answer } });
  if (t.results[0]) {
    const cited = t.results[0];
    push("content_block_delta", {
      index: 2,
      delta: { type: "citations_delta", citation: { type: "web_search_result_location", cited_text: t.answer, url: cited.url, title: cited.title, encrypted_index: "Eo8BCioIAhgB" } },
    });
  }
  push("content_block_stop", { index: 2 });
  push("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 20, server_tool_use: { web_search_requests: 1 } } });
  push("message_stop");
  return out;
}

export function responsesSearchTurn(t: SearchTurn, model: string): SseEvent[] {
  const out: SseEvent[] = [];
  let seq = 0;
  const push = (type: string, body: Record<string, unknown>) => out.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...body }) });
  const response = (status: string, output: unknown[]) => ({
    id: "resp_search",
    object: "response",
    created_at: 1_760_000_000,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    store: false,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    usage: status === "completed" ? { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 } : null,
  });
  push("response.created", { response: response("in_progress", []) });
  const searchId = "ws_search_01";
  const action = { type: "search", query: t.query, sources: t.results.map((r) => ({ type: "url", url: r.url })) };
  push("response.output_item.added", { output_index: 0, item: { id: searchId, type: "web_search_call", status: "in_progress", action: { type: "search", query: t.query } } });
  push("response.web_search_call.in_progress", { output_index: 0, item_id: searchId });
  push("response.web_search_call.searching", { output_index: 0, item_id: searchId });
  push("response.web_search_call.completed", { output_index: 0, item_id: searchId });
  const search = { id: searchId, type: "web_search_call", status: "completed", action };
  push("response.output_item.done", { output_index: 0, item: search });
  const msgId = "msg_search_01";
  const annotations = t.results.map((r) => ({ type: "url_citation", start_index: 0, end_index: t.answer.length, url: r.url, title: r.title }));
  const at = { item_id: msgId, output_index: 1, content_index: 0 };
  push("response.output_item.added", { output_index: 1, item: { id: msgId, type: "message", status: "in_progress", content: [], role: "assistant" } });
  push("response.content_part.added", { ...at, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
  push("response.output_text.delta", { ...at, delta: t.answer, logprobs: [] });
  annotations.forEach((annotation, i) => push("response.output_text.annotation.added", { ...at, annotation_index: i, annotation }));
  push("response.output_text.done", { ...at, text: t.answer, logprobs: [] });
  const part = { type: "output_text", annotations, logprobs: [], text: t.answer };
  push("response.content_part.done", { ...at, part });
  const message = { id: msgId, type: "message", status: "completed", content: [part], role: "assistant" };
  push("response.output_item.done", { output_index: 1, item: message });
  push("response.completed", { response: response("completed", [search, message]) });
  return out;
}
