// OpenAI Chat Completions adapter, for any server that speaks the format:
// llama.cpp, vLLM, Ollama, LM Studio, OpenRouter, OpenAI itself. These differ
// in small ways, so the chunk handling is lenient where they disagree.

import type OpenAI from "openai";
import { incompleteStream } from "./failure.js";
import type { ProviderOptions } from "./index.js";
import { runWithRetries } from "./retry.js";
import { lazyClient, listModelIds, retryOptions, sdkOptions } from "./sdk-client.js";
import type { Provider, ProviderEvent } from "./types.js";
import { toChatBody } from "./wire-history.js";

const NAME = "openai-chat";

export function createChatProvider(opts: ProviderOptions): Provider {
  const client = lazyClient(NAME, async () => {
    const { default: OpenAIClient } = await import("openai");
    const options = sdkOptions(opts, "OPENAI_LOG");
    // Local servers need no key, but the SDK refuses to start without one.
    const apiKey = opts.apiKey ?? (process.env["OPENAI_API_KEY"] ? undefined : "not-needed");
    return new OpenAIClient(apiKey === undefined ? options : { ...options, apiKey });
  });
  return {
    name: NAME,
    async *stream(request, signal) {
      const base = await client();
      const body = toChatBody(request);
      yield* runWithRetries(retryOptions(opts, NAME), signal, (fetch, attemptSignal) =>
        attempt(base.withOptions({ fetch }), body, attemptSignal),
      );
    },
    async listModels(signal) {
      return listModelIds(NAME, await client(), signal, (c) => c.models.list({ signal }));
    },
  };
}

type Body = ReturnType<typeof toChatBody>;

async function* attempt(client: OpenAI, body: Body, signal: AbortSignal): AsyncGenerator<ProviderEvent, string> {
  const stream = await client.chat.completions.create(
    { ...body, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  // Calls are keyed by the chunk's `index`: only a call's first chunk has its id and name.
  const open = new Map<number, string>();
  const started: string[] = [];
  let finishReason: string | undefined;
  let usage: OpenAI.CompletionUsage | undefined;

  function* endAll(): Generator<ProviderEvent> {
    for (const id of open.values()) yield { type: "tool_call_end", id };
    open.clear();
  }

  try {
    for await (const chunk of stream) {
      // Usage comes in its own final chunk (OpenAI) or alongside the last choice (llama.cpp).
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (delta.content) yield { type: "text_delta", text: delta.content };
      for (const [position, call] of (delta.tool_calls ?? []).entries()) {
        const index = call.index ?? position;
        let id = open.get(index);
        // Some servers reuse index 0 for every call; a new id means a new call.
        if (id !== undefined && call.id && call.id !== id) {
          yield { type: "tool_call_end", id };
          open.delete(index);
          id = undefined;
        }
        if (id === undefined) {
          id = call.id || `call_${started.length}`;
          open.set(index, id);
          started.push(id);
          yield { type: "tool_call_start", id, name: call.function?.name ?? "" };
        }
        const args = call.function?.arguments;
        if (args) yield { type: "tool_call_delta", id, delta: args };
      }
      if (choice.finish_reason) {
        finishReason = choice.finish_reason;
        yield* endAll();
      }
    }
  } catch (err) {
    // A finish_reason means the answer is whole; a connection dropped after it
    // (before the usage chunk or [DONE]) loses nothing worth a retry.
    if (finishReason === undefined || signal.aborted) throw err;
  }
  if (finishReason === undefined) throw incompleteStream("a finish_reason");
  yield* endAll();
  if (usage) {
    yield {
      type: "usage",
      usage: {
        inputTokens: usage.prompt_tokens,
        outputTokens: usage.completion_tokens,
        cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      },
    };
  }
  return stopReasonOf(finishReason, started.length > 0);
}

/** Servers disagree on the reason for a tool-calling turn ("tool_calls", "stop"); the calls decide. */
function stopReasonOf(finishReason: string, calledTools: boolean): string {
  if (finishReason === "length") return "max_tokens";
  if (calledTools) return "tool_use";
  return finishReason === "stop" ? "end_turn" : finishReason;
}
