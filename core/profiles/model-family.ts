// Which edit tool a model family is at home with (the Chord surface's edit
// tool family): GPT and o-series models were trained on the Codex
// patch envelope, so they get apply_patch alone and create and delete files
// through it; every other model gets exact-text edit with write and delete.
//
// Only the id says which family a model belongs to. The provider settles it
// only where it can serve no GPT model at all (Anthropic), so an
// OpenAI-compatible server or a router (`openai/gpt-4o`) is judged by the id.
// An unknown model (profile checks, `yuj tool` without a provider, a
// scripted model named "scripted") takes the fallback pairing, edit: that is
// Chord's "others" branch, and the one whose tools cannot lose a capability
// (edit + write + delete cover what the envelope does).

export type EditFamily = "patch" | "edit";

/** Providers that never serve a GPT or o-series model. */
const NON_GPT_PROVIDERS = new Set(["anthropic"]);

export function editFamily(model: { provider: string; id: string } | undefined): EditFamily {
  if (!model) return "edit";
  if (NON_GPT_PROVIDERS.has(model.provider)) return "edit";
  return isPatchNative(model.id) ? "patch" : "edit";
}

/**
 * GPT (gpt-4o, gpt-4.1, gpt-5, gpt-5-codex, gpt-oss, chatgpt-4o-latest), the
 * o-series (o1, o3-mini, o4-mini) and codex-mini. A router's vendor prefix
 * (`openai/`) and a fine-tune's `ft:` are looked through.
 */
export function isPatchNative(id: string): boolean {
  let name = id.trim().toLowerCase();
  if (name.startsWith("ft:")) name = name.slice(3);
  const slash = name.lastIndexOf("/");
  if (slash >= 0) name = name.slice(slash + 1);
  return /^(gpt|chatgpt)-/.test(name) || /^o\d+(-|$)/.test(name) || /^codex-/.test(name);
}
