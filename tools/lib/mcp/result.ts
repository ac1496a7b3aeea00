// An MCP tool result as the model gets it: text parts as they are, images
// (normalised to PNG or JPEG, scaled like view_image's) after the text,
// structured content as JSON text, embedded resources by their text or a
// line naming them. An `isError` result is a failed call. The dispatcher
// bounds the text by the central output limit and saves the whole of it.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../../../core/tool-types.js";
import { normaliseImage, sniffImage } from "../image.js";

type Part = CallToolResult["content"][number];
type Image = NonNullable<ToolResult["images"]>[number];

export async function mcpResultToToolResult(exposed: string, result: CallToolResult): Promise<ToolResult> {
  const texts: string[] = [];
  const images: Image[] = [];
  for (const part of result.content ?? []) {
    const image = part.type === "image" ? await toImage(part.data, part.mimeType, images.length) : undefined;
    if (image && "error" in image) texts.push(image.error);
    else if (image) images.push(image);
    else texts.push(describePart(part));
  }
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    // Servers usually repeat the structured content as text; once is enough.
    if (!texts.some((t) => sameJson(t, result.structuredContent))) texts.push(json);
  }
  let text = texts.filter((t) => t !== "").join("\n");
  if (text === "") text = images.length ? `${images.length} image(s)` : "(no output)";
  if (result.isError === true) text = `ERROR: ${exposed} failed: ${text}`;
  return { ok: result.isError !== true, modelText: text, ...(images.length ? { images } : {}) };
}

function describePart(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "audio":
      return `[audio ${part.mimeType}, ${base64Bytes(part.data)} bytes: not passed to the model]`;
    case "resource_link":
      return `[resource ${part.uri}${part.name ? ` (${part.name})` : ""}${part.mimeType ? `, ${part.mimeType}` : ""}]`;
    case "resource": {
      const r = part.resource;
      if ("text" in r && typeof r.text === "string") return `[resource ${r.uri}]\n${r.text}`;
      return `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ""}, ${"blob" in r ? base64Bytes(String(r.blob)) : 0} bytes of binary data]`;
    }
    default:
      return `[${(part as { type: string }).type} content]`;
  }
}

async function toImage(data: string, mimeType: string, index: number): Promise<Image | { error: string }> {
  const bytes = Buffer.from(data, "base64");
  const sniffed = sniffImage(bytes);
  if (sniffed.kind !== "image") return { error: `[image ${mimeType}, ${bytes.length} bytes: not a format yuj can show the model]` };
  try {
    const img = await normaliseImage(bytes, sniffed.format);
    return { mediaType: img.mediaType, data: img.data.toString("base64"), label: `image ${index + 1} (${img.width}x${img.height})` };
  } catch (err) {
    return { error: `[image ${mimeType}: could not be decoded: ${(err as Error).message}]` };
  }
}

const base64Bytes = (data: string): number => Buffer.byteLength(data, "base64");

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
