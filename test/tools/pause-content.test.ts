// The paused turn's content as the Anthropic adapter rebuilds it from the
// stream: every block whole, in index order, as the API would list it, so a
// resumed request can carry it back unchanged.

import { describe, expect, it } from "vitest";
import { ResponseContent } from "../../core/providers/anthropic-content.js";

describe("ResponseContent", () => {
  it("joins text, thinking and citations, keeps the last signature, and parses the streamed input at the block's stop", () => {
    const c = new ResponseContent();
    c.start(1, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } as never);
    c.start(0, { type: "thinking", thinking: "", signature: "" } as never);
    c.delta(0, { type: "thinking_delta", thinking: "Search " });
    c.delta(0, { type: "thinking_delta", thinking: "first." });
    c.delta(0, { type: "signature_delta", signature: "EqQB" });
    c.stop(0);
    c.delta(1, { type: "input_json_delta", partial_json: '{"query":' });
    c.delta(1, { type: "input_json_delta", partial_json: '"node"}' });
    c.stop(1);
    c.start(2, { type: "text", text: "", citations: null } as never);
    c.delta(2, { type: "text_delta", text: "Node " });
    c.delta(2, { type: "text_delta", text: "20." });
    const citation = { type: "web_search_result_location", cited_text: "Node 20.", url: "https://nodejs.org/", title: "Node.js", encrypted_index: "Eo8B" } as const;
    c.delta(2, { type: "citations_delta", citation });
    c.stop(2);
    expect(c.content()).toEqual([
      { type: "thinking", thinking: "Search first.", signature: "EqQB" },
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "node" } },
      { type: "text", text: "Node 20.", citations: [citation] },
    ]);
  });

  it("input that did not arrive whole leaves the block as it started; a block the stream never stopped is still listed", () => {
    const c = new ResponseContent();
    c.start(0, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } as never);
    c.delta(0, { type: "input_json_delta", partial_json: '{"query":"no' });
    c.start(1, { type: "server_tool_use", id: "srvtoolu_2", name: "web_search", input: {} } as never);
    c.delta(1, { type: "input_json_delta", partial_json: '{"query":"q"}' });
    c.stop(0);
    expect(c.content()).toEqual([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      { type: "server_tool_use", id: "srvtoolu_2", name: "web_search", input: { query: "q" } },
    ]);
  });

  it("the start event's object is copied, not grown", () => {
    const c = new ResponseContent();
    const start = { type: "text", text: "" };
    c.start(0, start as never);
    c.delta(0, { type: "text_delta", text: "more" });
    expect(start).toEqual({ type: "text", text: "" });
  });
});
