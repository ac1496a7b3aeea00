import { describe, expect, test } from "vitest";
import type { RequestItem, ModelRequest } from "../../core/history.js";
import { argsObject, toAnthropicBody, toChatBody, toResponsesBody } from "../../core/providers/wire-history.js";

const TOOL = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: {} } };

const HISTORY: RequestItem[] = [
  { role: "user", text: "look at a and b" },
  {
    role: "assistant",
    text: "Reading.",
    toolCalls: [
      { id: "c1", name: "read_file", args: '{"path":"a"}' },
      { id: "c2", name: "read_file", args: '{"path": "b"' }, // malformed: cut off
    ],
  },
  { role: "tool", callId: "c1", name: "read_file", text: "A", isError: false },
  { role: "tool", callId: "c2", name: "read_file", text: "bad arguments", isError: true },
  { role: "assistant", text: "", toolCalls: [{ id: "c3", name: "read_file", args: "[1,2]" }] },
  { role: "tool", callId: "c3", name: "read_file", text: "C", isError: false },
  { role: "user", text: "and now?" },
];

function req(history: RequestItem[] = HISTORY): ModelRequest {
  return { model: "m", system: "be brief", history, tools: [TOOL], maxOutputTokens: 512 };
}

describe("Anthropic translation", () => {
  const body = toAnthropicBody(req());

  test("system, limits and tools at the top level", () => {
    expect(body.system).toBe("be brief");
    expect(body.max_tokens).toBe(512);
    expect(body.model).toBe("m");
    expect(body.tools).toEqual([{ name: "read_file", description: "Read a file", input_schema: TOOL.parameters }]);
    expect(body.cache_control).toEqual({ type: "ephemeral" });
  });

  test("assistant turns become text and tool_use blocks with parsed input", () => {
    expect(body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "c1", name: "read_file", input: { path: "a" } },
        // arguments that are not a JSON object go back as {}
        { type: "tool_use", id: "c2", name: "read_file", input: {} },
      ],
    });
    // no empty text block
    expect(body.messages[3]).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "c3", name: "read_file", input: {} }],
    });
  });

  test("consecutive tool results form one user message", () => {
    expect(body.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "c1", content: "A", is_error: false },
        { type: "tool_result", tool_use_id: "c2", content: "bad arguments", is_error: true },
      ],
    });
  });

  test("a user message right after tool results joins them", () => {
    expect(body.messages).toHaveLength(5);
    expect(body.messages[4]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "c3", content: "C", is_error: false },
        { type: "text", text: "and now?" },
      ],
    });
    expect(body.messages[0]).toEqual({ role: "user", content: "look at a and b" });
  });

  test("an assistant turn with nothing in it is left out", () => {
    const b = toAnthropicBody(req([{ role: "user", text: "hi" }, { role: "assistant", text: "", toolCalls: [] }]));
    expect(b.messages).toEqual([{ role: "user", content: "hi" }]);
  });
});

describe("Responses translation", () => {
  const body = toResponsesBody(req());

  test("instructions, limits and tools", () => {
    expect(body.instructions).toBe("be brief");
    expect(body.max_output_tokens).toBe(512);
    expect(body.tools).toEqual([
      { type: "function", name: "read_file", description: "Read a file", parameters: TOOL.parameters, strict: false },
    ]);
  });

  test("history becomes input items; arguments are sent as the model wrote them", () => {
    expect(body.input).toEqual([
      { role: "user", content: "look at a and b" },
      { role: "assistant", content: "Reading." },
      { type: "function_call", call_id: "c1", name: "read_file", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: "c2", name: "read_file", arguments: '{"path": "b"' },
      { type: "function_call_output", call_id: "c1", output: "A" },
      { type: "function_call_output", call_id: "c2", output: "bad arguments" },
      { type: "function_call", call_id: "c3", name: "read_file", arguments: "[1,2]" },
      { type: "function_call_output", call_id: "c3", output: "C" },
      { role: "user", content: "and now?" },
    ]);
  });
});

describe("Chat Completions translation", () => {
  const body = toChatBody(req());

  test("system first, limits and tools", () => {
    expect(body.messages[0]).toEqual({ role: "system", content: "be brief" });
    expect(body.max_tokens).toBe(512);
    expect(body.tools).toEqual([
      { type: "function", function: { name: "read_file", description: "Read a file", parameters: TOOL.parameters } },
    ]);
  });

  test("assistant tool calls, tool messages; malformed arguments become {}", () => {
    expect(body.messages.slice(1)).toEqual([
      { role: "user", content: "look at a and b" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
          { id: "c2", type: "function", function: { name: "read_file", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "bad arguments" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c3", type: "function", function: { name: "read_file", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c3", content: "C" },
      { role: "user", content: "and now?" },
    ]);
  });

  test("no system message when the system prompt is empty; no tools key without tools", () => {
    const b = toChatBody({ ...req([{ role: "user", text: "hi" }]), system: "", tools: [] });
    expect(b.messages).toEqual([{ role: "user", content: "hi" }]);
    expect("tools" in b).toBe(false);
  });
});

test("argsObject accepts only JSON objects", () => {
  expect(argsObject({ id: "x", name: "n", args: '{"a":1}' })).toEqual({ a: 1 });
  expect(argsObject({ id: "x", name: "n", args: "" })).toBeUndefined();
  expect(argsObject({ id: "x", name: "n", args: "null" })).toBeUndefined();
  expect(argsObject({ id: "x", name: "n", args: '"text"' })).toBeUndefined();
  expect(argsObject({ id: "x", name: "n", args: "[1]" })).toBeUndefined();
});
