// Chord `web_search(query, allowed_domains?, blocked_domains?)`: the
// provider's hosted search as a function tool. Each call is one model request
// of its own to the session's provider (Anthropic Messages or OpenAI
// Responses) that declares only the hosted search, forces it, and carries the
// call's domain filter; the conversation's requests never declare it (the
// `hosted_search` role tells the app so). A turn the provider pauses
// (Anthropic's pause_turn) is resumed, a few times at most, and counts as
// one request: its searches, text and citations together. The result is the
// request's summary, then its sources numbered once each (`[1] Title`, the
// URL indented below), the passages its text cites, and the searches' errors.

import { z } from "zod";
import type { Usage } from "../../core/events.js";
import type { ModelRequest } from "../../core/history.js";
import { carriesHostedTools, type HostedCitation, type HostedSearch, type HostedTool } from "../../core/providers/hosted.js";
import { ProviderError } from "../../core/providers/types.js";
import { fail, ok, type ToolContext, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

const schema = z.object({
  query: z.string(),
  allowed_domains: z.array(z.string()).optional(),
  blocked_domains: z.array(z.string()).optional(),
});

/** Per list: OpenAI's documented filter limit (Anthropic documents none; the stricter one serves both). */
const MAX_DOMAINS = 100;
/** Searches the provider may run inside the one request. */
const MAX_USES = 8;
/** Requests that resume a paused turn, after the first: a provider that keeps pausing must not hold the call forever. */
const MAX_CONTINUATIONS = 5;
const MAX_OUTPUT_TOKENS = 4096;
/** The whole call, retries included: a provider-side search is several network hops. */
const TIMEOUT_MS = 120_000;
/** The request carries no conversation: just the search to run and what to answer. */
const SYSTEM = "You are a tool-use assistant. Run the requested tool and reply with a short factual summary of its output.";

export const webSearchTool: ToolHandler<typeof schema> = {
  id: "web_search",
  schema,
  effects: new Set<ToolEffect>(["network"]),
  role: "hosted_search",
  view: { card: "foldable", summary: (args) => str(args, "query")?.trim() ?? "" },
  async run(args, ctx) {
    const checked = checkArgs(args);
    if (typeof checked === "string") return fail(checked);
    const model = ctx.model;
    if (!model || !carriesHostedTools(model.provider.name)) {
      return fail("web_search is not available: add web_search to [compat] hosted_tools for an Anthropic Messages or OpenAI Responses model");
    }
    const observed = await searchWithFallback(checked, model, ctx);
    if (typeof observed === "string") return fail(observed);
    const errors = observed.calls.filter((c) => c.error !== undefined).map((c) => errorText(c, model.provider.name));
    if (errors.length === observed.calls.length) return fail(`web_search returned only errors: ${errors.join("; ")}`);
    return ok(formatObservation(observed, errors));
  },
};

interface SearchArgs {
  query: string;
  allowed: string[];
  blocked: string[];
}

/** The arguments trimmed and checked before any request is sent, or what is wrong with them. */
function checkArgs(args: z.infer<typeof schema>): SearchArgs | string {
  const query = args.query.trim();
  if (!query) return "query is required";
  const allowed = domainList("allowed_domains", args.allowed_domains);
  if (typeof allowed === "string") return allowed;
  const blocked = domainList("blocked_domains", args.blocked_domains);
  if (typeof blocked === "string") return blocked;
  if (allowed.length > 0 && blocked.length > 0) return "allowed_domains and blocked_domains are mutually exclusive";
  return { query, allowed, blocked };
}

function domainList(field: string, given: readonly string[] | undefined): string[] | string {
  if (!given) return [];
  if (given.length > MAX_DOMAINS) return `${field} accepts at most ${MAX_DOMAINS} domains`;
  const out: string[] = [];
  for (const raw of given) {
    const domain = raw.trim();
    const problem = domainProblem(domain);
    if (problem) return `${field}: ${problem}`;
    out.push(domain);
  }
  return out;
}

/** A bare domain such as "example.com": no scheme, path, port or wildcard, no empty label, at least one dot. */
function domainProblem(domain: string): string | undefined {
  if (domain === "") return "domain must not be empty";
  const quoted = JSON.stringify(domain);
  if (domain.includes("://") || /[/?#@: ]/.test(domain)) return `invalid domain ${quoted}: provide a bare domain without scheme or path`;
  if (domain.startsWith(".") || domain.endsWith(".") || domain.includes("..")) return `invalid domain ${quoted}: empty domain label`;
  // Letters of any script are fine (internationalised names); ASCII punctuation other than - and . is not.
  if ([...domain].some((ch) => ch <= "\x7f" && !/[-.0-9A-Za-z]/.test(ch))) return `invalid domain ${quoted}: only letters, digits, hyphens and dots are allowed`;
  if (!domain.includes(".")) return `invalid domain ${quoted}: provide a domain such as "example.com"`;
  return undefined;
}

interface Observation {
  summary: string;
  calls: HostedSearch[];
  citations: HostedCitation[];
  /** The provider still paused the turn when the continuations ran out. */
  stillPaused?: boolean;
}

type Model = NonNullable<ToolContext["model"]>;

/**
 * The forced request; when the endpoint refuses the forced tool choice, once
 * more with the search only declared and asked for. Either way a response
 * that ran no search fails: the model's own answer is not a search result.
 */
async function searchWithFallback(args: SearchArgs, model: Model, ctx: ToolContext): Promise<Observation | string> {
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  const signal = AbortSignal.any([ctx.signal, deadline]);
  const failure = (err: Error): string => {
    if (ctx.signal.aborted) return "web_search was cancelled";
    if (deadline.aborted) return `web_search timed out after ${TIMEOUT_MS / 1000} s`;
    return `web_search failed: ${err.message}`;
  };
  const forced = await searchOnce(args, model, signal, true);
  if (!(forced instanceof Error)) return observed(forced);
  if (!choiceRefused(forced)) return failure(forced);
  const hinted = await searchOnce(args, model, signal, false);
  if (!(hinted instanceof Error) && hinted.calls.length > 0) return hinted;
  const why = hinted instanceof Error ? failure(hinted) : NOT_OBSERVED;
  return `the forced web_search declaration was refused (${forced.message}); the retry without forcing failed too: ${why}`;
}

const NOT_OBSERVED = "no web_search call was observed: the model did not run it or the endpoint ignored the hosted declaration";

/** What a finished request reported, or why it does not count: no search ran. */
function observed(obs: Observation): Observation | string {
  if (obs.calls.length > 0) return obs;
  return obs.stillPaused ? `no web_search call was observed: the provider ${PAUSED}, without a finished search` : NOT_OBSERVED;
}

const PAUSED = `still paused the search (pause_turn) after ${MAX_CONTINUATIONS} continuations`;

/** A 400/422 answer about the forced tool choice (not auth, limits or the model): the unforced request may still search. */
function choiceRefused(err: Error): boolean {
  if (!(err instanceof ProviderError) || (err.status !== 400 && err.status !== 422)) return false;
  return /tool[_ ]choice|forced? tool/i.test(err.serverMessage);
}

/**
 * The search's turn: one request with the search declared (and forced, unless
 * `force` is false), resumed while the provider pauses it (Anthropic's
 * pause_turn: the paused content goes back unchanged as the assistant
 * message), at most MAX_CONTINUATIONS times; what every request reported,
 * together, or the first error.
 */
async function searchOnce(args: SearchArgs, model: Model, signal: AbortSignal, force: boolean): Promise<Observation | Error> {
  const seen: Observation = { summary: "", calls: [], citations: [] };
  const paused: unknown[] = [];
  for (let continuation = 0; ; continuation++) {
    const turn = await streamTurn(searchRequest(args, model, force, paused), model, signal);
    if (turn instanceof Error) return turn;
    seen.summary += turn.summary;
    seen.calls.push(...turn.calls);
    seen.citations.push(...turn.citations);
    if (!turn.paused) return seen;
    if (continuation === MAX_CONTINUATIONS) return { ...seen, stillPaused: true };
    // One assistant message holds the whole turn so far, every pause's blocks in order.
    paused.push(...turn.paused);
  }
}

function searchRequest(args: SearchArgs, model: Model, force: boolean, paused: readonly unknown[]): ModelRequest {
  const declaration: HostedTool = { kind: "web_search", allowedDomains: args.allowed, blockedDomains: args.blocked, maxUses: MAX_USES };
  // A resumed turn is not forced again: forcing would make its first block a
  // new search instead of the rest of the paused one.
  const forced = force && paused.length === 0;
  return {
    model: model.id,
    system: force ? SYSTEM : `${SYSTEM} Always call the web_search tool for the request before answering.`,
    history: [{ role: "user", text: `Perform a web search for the query: ${args.query}` }],
    tools: [],
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    hostedTools: [declaration],
    ...(forced ? { forceHostedTool: true } : {}),
    ...(paused.length > 0 ? { resumeContent: paused } : {}),
  };
}

/** What one request's stream reported; `paused` holds the turn's content when the provider paused it. */
async function streamTurn(request: ModelRequest, model: Model, signal: AbortSignal): Promise<(Observation & { paused?: readonly unknown[] }) | Error> {
  const seen: Observation & { paused?: readonly unknown[] } = { summary: "", calls: [], citations: [] };
  try {
    for await (const ev of model.provider.stream(request, signal)) {
      if (ev.type === "text_delta") seen.summary += ev.text;
      else if (ev.type === "hosted_search") seen.calls.push(ev.search);
      else if (ev.type === "hosted_citation") seen.citations.push(ev.citation);
      else if (ev.type === "paused") seen.paused = ev.content;
      else if (ev.type === "retry" && ev.discardedPartial) Object.assign(seen, { summary: "", calls: [], citations: [], paused: undefined });
      else if (ev.type === "usage" && model.usage) addUsage(model.usage, ev.usage);
    }
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  return seen;
}

/** The request's tokens were spent: they count in the session's total. */
function addUsage(total: Usage, more: Usage): void {
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
  total.cachedTokens += more.cachedTokens;
}

/** A failed search as the provider's own block or item names it. */
function errorText(call: HostedSearch, provider: string): string {
  return provider === "anthropic" ? `web_search_tool_result: ${call.error}` : "web_search_call: failed";
}

interface Source {
  url: string;
  title: string;
}

/** The summary, each call's reported input, the numbered sources, the cited passages, then the errors. */
function formatObservation(obs: Observation, errors: readonly string[]): string {
  const out: string[] = [];
  const summary = obs.summary.trim();
  if (summary) out.push("Assistant summary (not full source text):", summary, "");
  for (const call of obs.calls) if (call.input !== undefined) out.push(`Provider-reported input: ${JSON.stringify(call.input)}`);
  const sources = sourcesOf(obs);
  if (sources.length === 0) out.push("(no search results returned)");
  else out.push("Sources:", ...sources.flatMap((s, i) => [`[${i + 1}] ${s.title || s.url}`, `    ${s.url}`]));
  out.push(...citedPassages(obs.citations, sources));
  if (errors.length > 0) out.push(`Search errors: ${errors.join("; ")}`);
  if (obs.stillPaused) out.push(`Note: the provider ${PAUSED}; these are the results gathered so far.`);
  return out.join("\n").trimEnd();
}

/** Every page once, by URL, in the order the searches found them; then pages only the text cites. */
function sourcesOf(obs: Observation): Source[] {
  const byUrl = new Map<string, Source>();
  const add = (url: string, title: string | undefined) => {
    const u = url.trim();
    if (u && !byUrl.has(u)) byUrl.set(u, { url: u, title: title?.trim() ?? "" });
  };
  for (const call of obs.calls) for (const s of call.sources) add(s.url, s.title);
  for (const c of obs.citations) if (webUrl(c.url)) add(c.url, c.title);
  return [...byUrl.values()];
}

/** Only http(s) links with a host are sources (a citation is the provider's, but its link is not trusted blindly). */
function webUrl(url: string): boolean {
  try {
    const u = new URL(url.trim());
    return (u.protocol === "https:" || u.protocol === "http:") && u.host !== "";
  } catch {
    return false;
  }
}

/** `[n] passage` for each cited passage whose page is a numbered source, each pair once. */
function citedPassages(citations: readonly HostedCitation[], sources: readonly Source[]): string[] {
  const numbers = new Map(sources.map((s, i) => [s.url, i + 1]));
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const c of citations) {
    const text = c.text?.trim() ?? "";
    const n = numbers.get(c.url.trim());
    if (!text || n === undefined || seen.has(`${n}:${text}`)) continue;
    seen.add(`${n}:${text}`);
    lines.push(`[${n}] ${text}`);
  }
  return lines.length ? ["Cited passages:", ...lines] : [];
}
