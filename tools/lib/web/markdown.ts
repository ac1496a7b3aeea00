// An HTML page to the Markdown a model reads: the article Readability finds
// (or the whole body when it finds none), links made absolute, code blocks
// fenced with their language, tables kept (GFM). A page whose HTML is a shell
// that JavaScript fills in is flagged: what was fetched is not what a browser
// would show.

import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";

export interface PageText {
  title?: string;
  /** The article's author, site and date, where the page names them. */
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  /** Whether Readability found the article, or the whole body was converted. */
  mode: "html-readability" | "html-fallback";
  markdown: string;
  /** Little text and scripts that would build the page. */
  suspectShell: boolean;
}

const SHELL_TEXT_CHARS = 200;
// What a page that needs JavaScript (or cookies) says instead of its content,
// as Chord looks for it; with under 1200 characters of text, the page is a shell.
const SHELL_MARKERS = /enable javascript|javascript is required|requires javascript|turn on javascript|please enable cookies|app shell|loading\.\.\.|loading…|loading application|please wait while the application loads/i;
const MARKED_SHELL_TEXT_CHARS = 1200;

export function htmlToMarkdown(html: string, url: string): PageText {
  const parse = () => {
    const { document } = parseHTML(html);
    // linkedom has no base URL of its own: a <base> lets Readability resolve relative links.
    const base = document.createElement("base");
    base.setAttribute("href", url);
    document.head?.prepend(base);
    return document;
  };
  const document = parse();
  const suspectShell = isShell(document, html);
  const title = document.title?.trim() || undefined;
  const article = new Readability(document as unknown as Document, { keepClasses: true }).parse();
  // Readability finds no article in a short page: then the whole body, from a fresh parse (it edits the one it reads).
  const source = article?.content || parse().body?.innerHTML || "";
  const markdown = converter(url).turndown(source).trim();
  const shownTitle = article?.title?.trim() || title;
  const meta = { byline: article?.byline, siteName: article?.siteName, publishedTime: article?.publishedTime };
  const named = Object.fromEntries(Object.entries(meta).flatMap(([k, v]) => (v?.trim() ? [[k, v.trim()]] : [])));
  const mode = article?.content ? "html-readability" : "html-fallback";
  return { ...(shownTitle ? { title: shownTitle } : {}), ...named, mode, markdown, suspectShell };
}

function isShell(document: ReturnType<typeof parseHTML>["document"], html: string): boolean {
  const scripts = document.querySelectorAll("script").length;
  const body = document.body;
  if (!body) return scripts > 0;
  const clone = body.cloneNode(true) as typeof body;
  for (const el of clone.querySelectorAll("script, style, noscript, template")) el.remove();
  const text = (clone.textContent ?? "").replace(/\s+/g, " ").trim();
  if (SHELL_MARKERS.test(html) && text.length < MARKED_SHELL_TEXT_CHARS) return true;
  return scripts > 0 && text.length < SHELL_TEXT_CHARS;
}

function converter(url: string): TurndownService {
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  td.use(gfm);
  td.remove(["script", "style", "noscript"]);
  td.addRule("absoluteLinks", {
    filter: (node) => node.nodeName === "A" && !!(node as HTMLAnchorElement).getAttribute("href"),
    replacement: (content, node) => {
      const href = (node as HTMLAnchorElement).getAttribute("href")!;
      let abs = href;
      try {
        abs = new URL(href, url).href;
      } catch {
        // kept as written
      }
      return content.trim() ? `[${content.trim()}](${abs})` : "";
    },
  });
  // "- item" with one space, nested lists indented under the item's text
  // (two spaces for a bullet), as models and most Markdown write lists.
  td.addRule("compactListItem", {
    filter: "li",
    replacement: (content, node) => {
      const parent = node.parentNode as HTMLElement | null;
      let marker = "- ";
      if (parent?.nodeName === "OL") {
        const start = Number(parent.getAttribute("start") ?? "1");
        marker = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const text = content.replace(/^\n+/, "").replace(/\n+$/, "\n").replace(/\n(?=[^\n])/g, `\n${" ".repeat(marker.length)}`);
      return marker + text + (node.nextSibling && !text.endsWith("\n") ? "\n" : "");
    },
  });
  td.addRule("fencedWithLanguage", {
    filter: (node) => node.nodeName === "PRE" && node.firstChild?.nodeName === "CODE",
    replacement: (_content, node) => {
      const code = node.firstChild as HTMLElement;
      const lang = /(?:^|\s)(?:language|lang)-([A-Za-z0-9_+-]+)/.exec(code.getAttribute("class") ?? "")?.[1] ?? "";
      const text = (code.textContent ?? "").replace(/\n$/, "");
      const fence = text.includes("```") ? "~~~~" : "```";
      return `\n\n${fence}${lang}\n${text}\n${fence}\n\n`;
    },
  });
  return td;
}
