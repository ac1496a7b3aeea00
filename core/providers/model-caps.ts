// What a model can take as input, decided from the provider and the model id
// alone: tools such as view_image are offered only when the model can see
// what they return, and no request is spent finding out. Unknown ids answer
// "no", so a tool is never offered to a model that would reject its result.

/**
 * Whether `(provider, id)` accepts images in tool results.
 *
 * - anthropic: every Claude 3 and later model (claude-3-*, claude-*-4*, …);
 *   Claude 2 and Claude Instant do not.
 * - openai (Responses API): GPT-4o, GPT-4.1, GPT-4.5, GPT-5, GPT-4 Turbo and
 *   the o-series reasoning models, except the text-only minis (o1-mini,
 *   o3-mini) and the audio/realtime/speech variants.
 * - openai-chat: never. Chat Completions carries tool results as text only,
 *   and the servers behind it (llama.cpp, vLLM, …) vary too much to guess.
 * - scripted (tests and the demo): when the model id contains "vision" or
 *   "image" (`--model scripted-vision`), so a scenario can exercise image tools
 *   offline while the default "scripted" model stays text-only.
 *
 * Ids with a vendor prefix (`openai/gpt-5`, `anthropic/claude-…`) are judged
 * by the part after the last slash.
 */
export function modelAcceptsImages(provider: string, id: string): boolean {
  const model = id.toLowerCase().split("/").at(-1) ?? "";
  switch (provider) {
    case "anthropic":
      return model.startsWith("claude") && !/^claude-(2|instant)/.test(model);
    case "openai":
      if (/(audio|realtime|transcribe|tts|embedding|moderation)/.test(model)) return false;
      if (/^(o1|o3)-mini/.test(model)) return false;
      return /^(chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-4-turbo|gpt-4-vision|o1|o3|o4|computer-use)/.test(model);
    case "scripted":
      return /vision|image/.test(model);
    default:
      return false;
  }
}

/**
 * The context window of well-known models, in tokens, from their published
 * limits; undefined for anything else (set `[model].context_window`).
 */
export function modelContextWindow(provider: string, id: string): number | undefined {
  const model = id.toLowerCase().split("/").at(-1) ?? "";
  if (provider === "anthropic" || model.startsWith("claude")) return model.startsWith("claude") ? 200_000 : undefined;
  if (/^gpt-4\.1/.test(model)) return 1_047_576;
  if (/^gpt-5/.test(model)) return 400_000;
  if (/^(gpt-4o|chatgpt-4o|gpt-4-turbo|gpt-4\.5|o1-mini)/.test(model)) return 128_000;
  if (/^(o1|o3|o4)/.test(model)) return 200_000;
  return undefined;
}
