// A fetched response as the model reads it: a few header lines (the URL asked
// for and where it ended up, status, type, charset, how the text was
// extracted, the article's title, author, site and date, how much text the
// page gave (Chord's Content-Quality grades), how many bytes were read of the
// cap, whether the download was cut) and the body: HTML as Markdown unless
// raw, other text as it is, in its declared charset. A binary body is refused
// by name.

import type { Fetched } from "./fetch.js";
import { declaredCharset, decodeBody, looksBinary } from "./decode.js";
import { htmlToMarkdown } from "./markdown.js";

export interface Page {
  ok: boolean;
  text: string;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|ld\+json|rss\+xml|atom\+xml|xhtml\+xml)|[a-z]+\/[a-z0-9.+-]*\+(json|xml))/i;
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

/**
 * `maxOutputChars`: the result bound the dispatcher applies; a page over it
 * is cut in the middle, so the header must not claim it arrived whole.
 */
export function renderPage(f: Fetched, raw: boolean, maxBytes: number, maxOutputChars = Infinity): Page {
  const type = f.contentType.split(";")[0]!.trim();
  const lines = [`URL: ${f.redirects[0] ?? f.url}`];
  if (f.redirects.length) lines.push(`Final-URL: ${f.url}`, `Redirected from: ${f.redirects.join(" → ")}`);
  lines.push(`Status: ${f.status}`);
  if (f.contentType) lines.push(`Content-Type: ${f.contentType}`);
  const textual = type === "" ? !looksBinary(f.body) : TEXT_TYPES.test(type) && !looksBinary(f.body);
  if (!textual) {
    return { ok: false, text: `ERROR: ${f.url} returned a binary body (${type || "no Content-Type"}, ${f.body.length}${f.truncated ? "+" : ""} bytes); web_fetch returns text only` };
  }
  const charset = declaredCharset(f.contentType, f.body);
  const decoded = decodeBody(f.body, charset);
  lines.push(`Charset: ${charset.replace(/_/g, "-")}`);
  let body = decoded;
  const html = HTML_TYPES.test(type) || (type === "" && /^\s*<(!doctype html|html)/i.test(decoded));
  if (!html || raw) lines.push(`Extraction-Mode: ${html ? "html-raw" : "raw"}`, `Content-Quality: ${isThin(decoded) ? "thin" : "ok"}`);
  else {
    const page = htmlToMarkdown(decoded, f.url);
    lines.push(`Extraction-Mode: ${page.mode}`);
    if (page.title) lines.push(`Title: ${page.title}`);
    if (page.byline) lines.push(`Byline: ${page.byline}`);
    if (page.siteName) lines.push(`Site-Name: ${page.siteName}`);
    if (page.publishedTime) lines.push(`Published-Time: ${page.publishedTime}`);
    // The value alone on its line, as Chord writes it; why, on the next.
    if (page.suspectShell) {
      lines.push(
        "Content-Quality: suspect-shell",
        "Content-Quality-Note: little text and scripts that build the page; web_fetch does not run JavaScript, so this may not be what a browser shows",
      );
    } else lines.push(`Content-Quality: ${isThin(page.markdown) ? "thin" : page.mode === "html-fallback" ? "fallback" : "ok"}`);
    body = page.markdown;
  }
  lines.push(`Read-Bytes: ${f.body.length}/${maxBytes}`);
  const ok = f.status < 400;
  const compose = (meta: string[]) => `${ok ? "" : `ERROR: HTTP ${f.status} from ${f.url}\n`}${meta.join("\n")}\n\n${body}`.trimEnd();
  const whole = compose([...lines, ...truncationLines(f.truncated, false, maxBytes, maxOutputChars)]);
  if (whole.length <= maxOutputChars) return { ok, text: whole };
  return { ok, text: compose([...lines, ...truncationLines(f.truncated, true, maxBytes, maxOutputChars)]) };
}

/** The Truncated line (Chord's none / input / output / input,output) and the notes that say where each cut is. */
function truncationLines(input: boolean, output: boolean, maxBytes: number, maxOutputChars: number): string[] {
  if (!input && !output) return ["Truncated: none"];
  const out = [`Truncated: ${[input && "input", output && "output"].filter(Boolean).join(",")}`];
  if (input) out.push(`Truncated-Note: the download stopped at the ${capText(maxBytes)} cap ([web_fetch].max_bytes); what follows is the start of the body`);
  if (output) {
    out.push(
      `Output-Limit: ${maxOutputChars} chars`,
      "Output-Note: the text is longer than a tool result may be ([output].max_output_chars); its middle is cut and the whole text is saved where the marker in it says",
    );
  }
  return out;
}

/**
 * Too little text to be the page a reader wanted (a stub, an error page, a
 * bare link list), by Chord's measure: under 40 characters that are not
 * white space, or under 10 words and under 120 such characters.
 */
function isThin(text: string): boolean {
  const chars = [...text.replace(/\s+/g, "")].length;
  if (chars < 40) return true;
  const words = text.split(/\s+/).filter(Boolean).length;
  return words < 10 && chars < 120;
}

function capText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
