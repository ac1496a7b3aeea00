// The content blocks of one Anthropic response, rebuilt from its stream.
// Only a paused turn (stop_reason "pause_turn") needs them: the API resumes
// the turn when the next request carries this content, unchanged, as the
// assistant message, server_tool_use and web_search_tool_result blocks
// included (encrypted fields and all), so the blocks are kept whole here
// rather than as the neutral events the rest of yuj reads.

import type Anthropic from "@anthropic-ai/sdk";

type Block = Record<string, unknown>;

export class ResponseContent {
  private blocks = new Map<number, Block>();
  /** Streamed input JSON by block index: it replaces the block's start input once the block stops. */
  private json = new Map<number, string>();

  start(index: number, block: Anthropic.RawContentBlockStartEvent["content_block"]): void {
    // A copy: the start event's object is the adapter's to read, not ours to grow.
    this.blocks.set(index, structuredClone(block) as unknown as Block);
  }

  delta(index: number, delta: Anthropic.RawContentBlockDelta): void {
    const block = this.blocks.get(index);
    if (!block) return;
    switch (delta.type) {
      case "text_delta":
        block.text = `${typeof block.text === "string" ? block.text : ""}${delta.text}`;
        break;
      case "input_json_delta":
        this.json.set(index, (this.json.get(index) ?? "") + delta.partial_json);
        break;
      case "citations_delta":
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        break;
      case "thinking_delta":
        block.thinking = `${typeof block.thinking === "string" ? block.thinking : ""}${delta.thinking}`;
        break;
      case "signature_delta":
        block.signature = delta.signature;
        break;
    }
  }

  stop(index: number): void {
    const json = this.json.get(index);
    const block = this.blocks.get(index);
    if (json === undefined || !block) return;
    this.json.delete(index);
    try {
      block.input = JSON.parse(json);
    } catch {
      // Input that did not arrive whole stays as the block started: the
      // server, not yuj, judges a resumed turn.
    }
  }

  /** The blocks in the order of their indexes. */
  content(): unknown[] {
    for (const index of [...this.json.keys()]) this.stop(index);
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }
}
