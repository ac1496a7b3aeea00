// web_fetch(url, raw?, timeout?): a page as readable Markdown, or its body as
// is with raw. Both surfaces; on Yuj it is off unless [web_fetch].enabled and
// asks unless a rule allows the host.

import { str } from "../lib/view.js";
import { z } from "zod";
import { WEB_FETCH_USER_AGENT } from "../../core/config/schema.js";
import { globMatch, isUniversal } from "../../core/permissions/glob.js";
import { hostMatches, urlMatchValue } from "../../core/permissions/net.js";
import { fail, ok, type ToolContext, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";

const schema = z.object({
  url: z.string().min(1),
  raw: z.boolean().optional(),
  timeout: z.number().int().min(1).max(120).optional(),
});

const DEFAULT_TIMEOUT_S = 30;

export const webFetchTool: ToolHandler<typeof schema> = {
  id: "web_fetch",
  schema,
  effects: new Set<ToolEffect>(["network"]),
  matchValue: (args) => ({ kind: "host", values: [urlMatchValue(args.url)] }),
  permissions: { askByDefault: "ask before fetching a URL" },
  view: { card: "foldable", summary: (args) => str(args, "url") ?? "" },
  async run(args, ctx) {
    const settings = ctx.config.web_fetch;
    const deadline = AbortSignal.any([ctx.signal, AbortSignal.timeout((args.timeout ?? DEFAULT_TIMEOUT_S) * 1000)]);
    // The HTTP client (node:http, https, tls, zlib, dns) and the HTML-to-Markdown stack
    // (a DOM, Readability, turndown, iconv) load on the first fetch, not at every start.
    const [{ FetchError, fetchUrl }, { renderPage }] = await Promise.all([import("../lib/web/fetch.js"), import("../lib/web/page.js")]);
    try {
      const fetched = await fetchUrl(args.url, {
        timeoutMs: (args.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
        maxBytes: settings.max_bytes,
        maxRedirects: settings.max_redirects,
        userAgent: settings.user_agent.trim() || WEB_FETCH_USER_AGENT,
        ...proxyFor(args.url, settings.proxy, ctx.services.env),
        allowPrivate: (value) => ruleAllowsPrivate(ctx, value),
        signal: deadline,
      });
      const page = renderPage(fetched, args.raw === true, settings.max_bytes, ctx.config.output.max_output_chars);
      return page.ok ? ok(page.text) : fail(page.text);
    } catch (err) {
      if (ctx.signal.aborted) return fail("ERROR: web_fetch was cancelled");
      if (deadline.aborted) return fail(`ERROR: timed out after ${args.timeout ?? DEFAULT_TIMEOUT_S} s fetching ${args.url}; pass a longer timeout (at most 120) or try later`);
      if (err instanceof FetchError) return fail(`ERROR: ${err.message}`);
      throw err;
    }
  },
};

/**
 * A private or loopback host is reached only when the user's config has an
 * allow rule for web_fetch whose pattern names it: a rule that allows every
 * host (a profile's `*`, say) is not a choice to reach the local network.
 */
function ruleAllowsPrivate(ctx: ToolContext, value: string): boolean {
  return ctx.config.permissions.rules.some(
    (r) => r.action === "allow" && globMatch(r.tool, "web_fetch") && !isUniversal(r.pattern) && hostMatches(r.pattern, value),
  );
}

/** [web_fetch].proxy; unset: the environment's HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured); "": direct. */
function proxyFor(url: string, configured: string | undefined, env: Record<string, string>): { proxy?: string } {
  if (configured !== undefined) return configured === "" ? {} : { proxy: configured };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return {};
  }
  const fromEnv = u.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (!fromEnv || !/^http:\/\//i.test(fromEnv)) return {};
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const host = u.hostname.toLowerCase();
  const bypass = noProxy.some((n) => n === "*" || host === n.replace(/^\./, "") || host.endsWith(n.startsWith(".") ? n : `.${n}`));
  return bypass ? {} : { proxy: fromEnv };
}
