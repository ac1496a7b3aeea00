// Tools the provider runs itself (today: web search). yuj only declares them
// in the request and reads what the provider reports back; no handler runs
// here. Off unless `[compat] hosted_tools` lists them, and only on the APIs
// that carry the declaration: Anthropic Messages and OpenAI Responses.

interface HostedWebSearch {
  kind: "web_search";
  /** Results only from these domains (empty: any). */
  allowedDomains: readonly string[];
  /** Never results from these domains (Anthropic only). */
  blockedDomains: readonly string[];
  /** Searches per request at most (Anthropic only); unset: the provider's default. */
  maxUses?: number;
}

export type HostedTool = HostedWebSearch;

/** One search the provider ran, as the adapters report it. */
export interface HostedSearch {
  id: string;
  query: string;
  sources: Array<{ url: string; title?: string }>;
  /** The provider's error code when the search failed. */
  error?: string;
  /** The call's input as the provider reported it (Anthropic: its input; Responses: its action, sources left out). */
  input?: unknown;
}

/** A passage of the model's text that cites a page (Anthropic's citations, Responses' url_citation annotations). */
export interface HostedCitation {
  url: string;
  title?: string;
  /** The cited passage: the provider's cited_text, or the span of the text the annotation covers. */
  text?: string;
}

interface HostedSettings {
  compat: { hosted_tools: readonly string[] };
  web_search: { allowed_domains: readonly string[]; blocked_domains: readonly string[]; max_uses?: number | undefined };
}

/** The APIs whose requests can carry a hosted search declaration. */
export function carriesHostedTools(provider: string): boolean {
  return provider === "anthropic" || provider === "openai";
}

/** The hosted tools a request to `provider` carries, or why one that is asked for cannot be. */
export function hostedToolsFor(config: HostedSettings, provider: string): { tools: HostedTool[]; problem?: string } {
  if (!config.compat.hosted_tools.includes("web_search")) return { tools: [] };
  if (!carriesHostedTools(provider)) {
    return { tools: [], problem: `web_search is off: the ${provider} provider has no hosted search tool (Anthropic Messages and OpenAI Responses have one)` };
  }
  const ws = config.web_search;
  if (provider === "openai" && ws.blocked_domains.length > 0) {
    return { tools: [], problem: "web_search is off: OpenAI Responses' search takes allowed_domains only; remove [web_search].blocked_domains or use allowed_domains" };
  }
  return {
    tools: [{ kind: "web_search", allowedDomains: ws.allowed_domains, blockedDomains: ws.blocked_domains, ...(ws.max_uses === undefined ? {} : { maxUses: ws.max_uses }) }],
  };
}

/** What the card shows and the result carries: the query and its numbered sources. */
export function searchSummary(search: HostedSearch): string {
  if (search.error) return `ERROR: web_search for ${JSON.stringify(search.query)} failed: ${search.error}`;
  if (search.sources.length === 0) return `web_search ${JSON.stringify(search.query)}: no sources`;
  const lines = search.sources.map((s, i) => `[${i + 1}] ${s.title ? `${s.title} — ` : ""}${s.url}`);
  return [`web_search ${JSON.stringify(search.query)}: ${search.sources.length} source${search.sources.length === 1 ? "" : "s"}`, ...lines].join("\n");
}

/** The numbered sources of a turn's searches, for the end of the model's text (each URL once). */
export function sourcesBlock(searches: readonly HostedSearch[]): string {
  const seen = new Map<string, string | undefined>();
  for (const s of searches) for (const src of s.sources) if (!seen.has(src.url) || (!seen.get(src.url) && src.title)) seen.set(src.url, src.title);
  if (seen.size === 0) return "";
  const lines = [...seen].map(([url, title], i) => `[${i + 1}] ${title ? `${title} — ` : ""}${url}`);
  return `Sources:\n${lines.join("\n")}`;
}
