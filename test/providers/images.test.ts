// Tool results with images, through each adapter's SDK to the local server:
// the request body must carry the image in that API's own shape (Anthropic
// image block, Responses input_image data URL), or, on Chat Completions,
// the text with a note and no image bytes. The trace copy of the body drops
// the bytes but keeps the JSON valid.

import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestItem } from "../../core/history.js";
import { elideImageData } from "../../core/providers/elide-images.js";
import { providerFor, request, run, serverPool } from "./helpers.js";

const pool = serverPool();
afterEach(() => pool.closeAll());

const RESULT_TEXT = 'Loaded image "dot.png" into context.\npath: dot.png\nsource: PNG 24x24, 99 bytes\nsent: PNG 24x24, 99 bytes';

async function imageHistory(): Promise<{ history: RequestItem[]; data: string }> {
  // Noise, so the base64 is long enough to count as an image payload.
  const raw = Buffer.alloc(24 * 24 * 3, 0).map((_, i) => (i * 7919) % 251);
  const data = (await sharp(raw, { raw: { width: 24, height: 24, channels: 3 } }).png().toBuffer()).toString("base64");
  const history: RequestItem[] = [
    { role: "user", text: "What colour is dot.png?" },
    { role: "assistant", text: "", toolCalls: [{ id: "call_img", name: "view_image", args: '{"path":"dot.png"}' }] },
    {
      role: "tool",
      callId: "call_img",
      name: "view_image",
      text: RESULT_TEXT,
      isError: false,
      images: [{ mediaType: "image/png", data, label: "dot.png", file: "images/call_img-0.png" }],
    },
  ];
  return { history, data };
}

const SCENARIO = { turns: [{ tool_calls: [{ name: "view_image", arguments: { path: "dot.png" } }] }, { text: "Noise." }] };

describe("image tool results on the wire", () => {
  it("anthropic: tool_result content is a text block then a base64 image block", async () => {
    const { history, data } = await imageHistory();
    const server = await pool.start(SCENARIO);
    const out = await run(await providerFor("anthropic", server), request(history));
    expect(out.error).toBeUndefined();
    expect(out.text).toBe("Noise.");
    const body = server.requests[0]!.body;
    expect(body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_img",
          is_error: false,
          content: [
            { type: "text", text: RESULT_TEXT },
            { type: "image", source: { type: "base64", media_type: "image/png", data } },
          ],
        },
      ],
    });
  });

  it("openai responses: function_call_output holds input_text and an input_image data URL", async () => {
    const { history, data } = await imageHistory();
    const server = await pool.start(SCENARIO);
    const out = await run(await providerFor("openai", server), request(history));
    expect(out.error).toBeUndefined();
    const output = server.requests[0]!.body.input.find((i: { type?: string }) => i.type === "function_call_output");
    expect(output).toEqual({
      type: "function_call_output",
      call_id: "call_img",
      output: [
        { type: "input_text", text: RESULT_TEXT },
        { type: "input_image", image_url: `data:image/png;base64,${data}` },
      ],
    });
  });

  it("openai-chat: the text with a note, and no image bytes", async () => {
    const { history, data } = await imageHistory();
    const server = await pool.start(SCENARIO);
    const out = await run(await providerFor("openai-chat", server), request(history));
    expect(out.error).toBeUndefined();
    const tool = server.requests[0]!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(tool).toEqual({
      role: "tool",
      tool_call_id: "call_img",
      content: `${RESULT_TEXT}\n[the image was not sent: this API (OpenAI Chat Completions) takes no images in tool results]`,
    });
    expect(server.requests[0]!.rawBody).not.toContain(data.slice(0, 64));
  });

  it.each(["anthropic", "openai"] as const)("%s: the trace copy of the body drops the bytes and stays JSON", async (name) => {
    const { history, data } = await imageHistory();
    const server = await pool.start(SCENARIO);
    await run(await providerFor(name, server), request(history));
    const raw = server.requests[0]!.rawBody;
    expect(raw).toContain(data);
    const elided = elideImageData(raw);
    expect(elided).not.toContain(data.slice(0, 64));
    expect(elided).toContain(`[image data omitted: ${data.length} base64 chars]`);
    expect(() => JSON.parse(elided)).not.toThrow();
    // A body without images is left exactly as it was.
    expect(elideImageData(JSON.stringify({ data: "short", text: "x".repeat(400) }))).toBe(
      JSON.stringify({ data: "short", text: "x".repeat(400) }),
    );
  });
});
