// The paged `<search_result ...>` envelope shared by glob and grep (digest
// 1.8/1.9). The model reads `next_page` to decide whether to ask for more, so
// the attributes are always present and always in the same order.

export interface SearchAttrs {
  tool: string;
  total: number;
  shown: number;
  page: number;
  nextPage: number;
  pattern: string;
  scope: string;
  hint?: string;
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
  "<": "&lt;",
  ">": "&gt;",
};

export const xmlEscape = (value: string): string => value.replace(/[&"'<>]/g, (c) => XML_ESCAPES[c] ?? c);

export function searchEnvelope(attrs: SearchAttrs, lines: readonly string[]): string {
  const parts = [
    `tool="${xmlEscape(attrs.tool)}"`,
    `total="${attrs.total}"`,
    `shown="${attrs.shown}"`,
    `page="${attrs.page}"`,
    `next_page="${attrs.nextPage}"`,
    `pattern="${xmlEscape(attrs.pattern)}"`,
    `scope="${xmlEscape(attrs.scope)}"`,
  ];
  if (attrs.hint !== undefined) parts.push(`hint="${xmlEscape(attrs.hint)}"`);
  const open = `<search_result ${parts.join(" ")}>`;
  if (lines.length) return `${open}\n${lines.join("\n")}\n</search_result>`;
  // The reference writes the opening tag, a line for the (empty) body and the
  // closing tag; only its hint-only refusal closes on the next line.
  return attrs.hint === undefined ? `${open}\n\n</search_result>` : `${open}\n</search_result>`;
}

/** A search the tool declined to run or to show: no lines, only a hint. */
export function refusalEnvelope(
  tool: string,
  pattern: string,
  scope: string,
  total: number,
  hint: string,
): string {
  return searchEnvelope({ tool, total, shown: 0, page: 1, nextPage: 0, pattern, scope, hint }, []);
}

export interface Page<T> {
  page: number;
  items: T[];
  nextPage: number;
}

/** One page of `all`; pages are 1-based and anything below 1 means page 1. */
export function paginate<T>(all: readonly T[], requested: number | undefined, perPage: number): Page<T> {
  const page = Math.max(1, Math.trunc(requested ?? 1));
  const start = (page - 1) * perPage;
  const items = all.slice(start, start + perPage);
  const nextPage = start + perPage < all.length ? page + 1 : 0;
  return { page, items, nextPage };
}
