// The neutral ModelRequest in each API's own shape. Pure functions, no SDK
// code at run time (the SDK types are erased), so they can be unit tested and
// loaded without the SDKs.

import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { HistoryItem, ModelRequest, ToolCall } from "../history.js";
import { parseArgsJson } from "../json-depth.js";
import type { HostedTool } from "./hosted.js";

type ToolItem = Extract<HistoryItem, { role: "tool" }>;

/** Anthropic Messages body (without `stream`). */
export function toAnthropicBody(req: ModelRequest): Omit<Anthropic.MessageCreateParamsStreaming, "stream"> {
  const messages: Anthropic.MessageParam[] = [];
  const history = req.history;
  for (let i = 0; i < history.length; i++) {
    const item = history[i]!;
    if (item.role === "user") {
      messages.push({ role: "user", content: item.text });
    } else if (item.role === "assistant") {
      const content: Anthropic.ContentBlockParam[] = [];
      if (item.text) content.push({ type: "text", text: item.text });
      for (const call of item.toolCalls) {
        content.push({ type: "tool_use", id: call.id, name: call.name, input: argsObject(call) ?? {} });
      }
      // The API rejects an assistant message with no content at all.
      if (content.length > 0) messages.push({ role: "assistant", content });
    } else {
      // Results of one turn's calls travel together in a single user message;
      // a user message right after them joins it (the API wants roles to
      // alternate, and tool results must open the message that follows a tool use).
      const blocks: Anthropic.ContentBlockParam[] = [];
      let j = i;
      for (; j < history.length && history[j]!.role === "tool"; j++) {
        const result = history[j] as ToolItem;
        blocks.push({
          type: "tool_result",
          tool_use_id: result.callId,
          content: result.images?.length ? anthropicToolContent(result) : result.text,
          is_error: result.isError,
        });
      }
      const next = history[j];
      if (next?.role === "user") {
        blocks.push({ type: "text", text: next.text });
        j++;
      }
      messages.push({ role: "user", content: blocks });
      i = j - 1;
    }
  }
  // The provider's own blocks, as it sent them: it resumes the turn from them.
  if (req.resumeContent?.length) messages.push({ role: "assistant", content: [...req.resumeContent] as Anthropic.ContentBlockParam[] });
  return {
    model: req.model,
    max_tokens: req.maxOutputTokens,
    ...(req.system ? { system: req.system } : {}),
    messages,
    ...(req.tools.length || req.hostedTools?.length
      ? {
          tools: [
            ...req.tools.map((t) => ({
              name: t.name,
              description: t.description,
              input_schema: t.parameters as Anthropic.Tool.InputSchema,
            })),
            ...(req.hostedTools ?? []).map(anthropicHostedTool),
          ],
        }
      : {}),
    ...(req.forceHostedTool && req.hostedTools?.[0] ? { tool_choice: { type: "tool" as const, name: anthropicHostedTool(req.hostedTools[0]).name } } : {}),
    // Caches the long, unchanging prefix (system, tools, earlier turns); an
    // agent resends it every turn, so this cuts cost and latency sharply.
    cache_control: { type: "ephemeral" },
  };
}

/** OpenAI Responses body (without `stream`/`store`). */
export function toResponsesBody(
  req: ModelRequest,
): Omit<OpenAI.Responses.ResponseCreateParamsStreaming, "stream" | "store"> {
  const input: OpenAI.Responses.ResponseInputItem[] = [];
  for (const item of req.history) {
    if (item.role === "user") {
      input.push({ role: "user", content: item.text });
    } else if (item.role === "assistant") {
      if (item.text) input.push({ role: "assistant", content: item.text });
      for (const call of item.toolCalls) {
        // Arguments go back exactly as the model wrote them: this API takes any text.
        input.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.args });
      }
    } else {
      input.push({
        type: "function_call_output",
        call_id: item.callId,
        output: item.images?.length ? responsesToolOutput(item) : item.text,
      });
    }
  }
  return {
    model: req.model,
    ...(req.system ? { instructions: req.system } : {}),
    input,
    ...(req.tools.length || req.hostedTools?.length
      ? {
          tools: [
            ...req.tools.map((t) => ({
              type: "function" as const,
              name: t.name,
              description: t.description,
              parameters: t.parameters,
              strict: false,
            })),
            ...(req.hostedTools ?? []).map(responsesHostedTool),
          ],
        }
      : {}),
    // Without this the search call reports its query but not the pages it found.
    ...(req.hostedTools?.length ? { include: ["web_search_call.action.sources" as const] } : {}),
    // Forcing a call: Responses takes "required" (any tool; the hosted one is the only one).
    ...(req.forceHostedTool && req.hostedTools?.length ? { tool_choice: "required" as const } : {}),
    max_output_tokens: req.maxOutputTokens,
  };
}

/** Anthropic's server-side search tool. */
function anthropicHostedTool(t: HostedTool): Anthropic.WebSearchTool20250305 {
  return {
    type: "web_search_20250305",
    name: "web_search",
    ...(t.allowedDomains.length ? { allowed_domains: [...t.allowedDomains] } : {}),
    ...(t.blockedDomains.length ? { blocked_domains: [...t.blockedDomains] } : {}),
    ...(t.maxUses === undefined ? {} : { max_uses: t.maxUses }),
  };
}

/**
 * OpenAI Responses' hosted search tool. The config's lists never hold a
 * blocked one here (hostedToolsFor refuses it); a call's own filter (the
 * Chord web_search tool) goes into `filters` beside the allowed list.
 */
function responsesHostedTool(t: HostedTool): OpenAI.Responses.WebSearchTool {
  const filters = {
    ...(t.allowedDomains.length ? { allowed_domains: [...t.allowedDomains] } : {}),
    ...(t.blockedDomains.length ? { blocked_domains: [...t.blockedDomains] } : {}),
  };
  return { type: "web_search", ...(Object.keys(filters).length ? { filters: filters as OpenAI.Responses.WebSearchTool.Filters } : {}) };
}

/** OpenAI Chat Completions body (without `stream`/`stream_options`). */
export function toChatBody(
  req: ModelRequest,
): Omit<OpenAI.Chat.ChatCompletionCreateParamsStreaming, "stream" | "stream_options"> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  if (req.system) messages.push({ role: "system", content: req.system });
  for (const item of req.history) {
    if (item.role === "user") {
      messages.push({ role: "user", content: item.text });
    } else if (item.role === "assistant") {
      if (!item.text && item.toolCalls.length === 0) continue; // servers reject an empty turn
      messages.push({
        role: "assistant",
        content: item.text || null,
        ...(item.toolCalls.length
          ? {
              tool_calls: item.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                // Local servers (llama.cpp, vLLM) parse these arguments to
                // render their chat templates and fail the whole request on
                // bad JSON, so malformed arguments go back as "{}"; the tool
                // result already told the model what was wrong.
                function: { name: call.name, arguments: argsObject(call) ? call.args : "{}" },
              })),
            }
          : {}),
      });
    } else {
      messages.push({ role: "tool", tool_call_id: item.callId, content: chatToolText(item) });
    }
  }
  return {
    model: req.model,
    messages,
    ...(req.tools.length
      ? {
          tools: req.tools.map((t) => ({
            type: "function" as const,
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }
      : {}),
    max_tokens: req.maxOutputTokens,
  };
}

/** A tool result with images: the text first, then each image as a base64 block. */
function anthropicToolContent(item: ToolItem): Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> {
  const blocks: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> = [];
  // The API rejects an empty text block; an image-only result sends just images.
  if (item.text) blocks.push({ type: "text", text: item.text });
  for (const img of item.images ?? []) {
    blocks.push({ type: "image", source: { type: "base64", media_type: img.mediaType, data: img.data } });
  }
  return blocks;
}

/** A function call output with images: input_text, then input_image items as data URLs. */
function responsesToolOutput(item: ToolItem): OpenAI.Responses.ResponseFunctionCallOutputItemList {
  return [
    { type: "input_text", text: item.text },
    ...(item.images ?? []).map((img) => ({
      type: "input_image" as const,
      image_url: `data:${img.mediaType};base64,${img.data}`,
    })),
  ];
}

/**
 * Chat Completions tool messages are text only. view_image is never offered
 * there, but a history made on another provider can hold image results: the
 * model gets the text and is told the image itself did not come through.
 */
function chatToolText(item: ToolItem): string {
  const count = item.images?.length ?? 0;
  if (count === 0) return item.text;
  const what = count === 1 ? "the image was" : `${count} images were`;
  return `${item.text}\n[${what} not sent: this API (OpenAI Chat Completions) takes no images in tool results]`;
}

/** The call's arguments as an object, or undefined when they are not a JSON object. */
export function argsObject(call: ToolCall): Record<string, unknown> | undefined {
  // Too deep to send back as an object: the call was refused for it, and
  // its result says so.
  const value = parseArgsJson(call.args)?.value;
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
