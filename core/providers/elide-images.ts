// Raw request bodies go into the trace (provider_request), and every request
// resends the whole history: a viewed image would be written again, as
// megabytes of base64, on every later turn. The trace keeps the request's
// shape and drops only the image bytes; the image itself is saved once in the
// session dir and named by the tool_result event.

// Base64 runs after an Anthropic `"data":"` field or inside a `data:` URL
// (OpenAI input_image). Short runs are left alone: only image payloads are long.
const IMAGE_DATA = /(;base64,|"data":")([A-Za-z0-9+/]{256,}={0,2})/g;

/** `body` with long base64 image payloads replaced by a note of their size. */
export function elideImageData(body: string): string {
  if (!body.includes(";base64,") && !body.includes('"base64"')) return body;
  return body.replace(IMAGE_DATA, (_m, lead: string, data: string) => `${lead}[image data omitted: ${data.length} base64 chars]`);
}
