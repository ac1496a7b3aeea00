// list_definitions with a path alone: the outline of one Python file (.py,
// .pyi), in the `<list_definitions status="ok" path count surface>` envelope.
// The file is parsed, never run.

import * as path from "node:path";
import { fail, ok, type ToolContext, type ToolResult } from "../../../core/tool-types.js";
import { isHiddenRefusal, locateExistingFile } from "../paths.js";
import { yujPaths } from "../file-access.js";
import { tooLarge, sizeAndLimit } from "../file-limits.js";
import { errorEnvelope, envelope, type Attr } from "./envelope.js";
import { errorDisplay } from "./display.js";
import { GrammarMissing, parserFor } from "./grammars.js";
import { firstSyntaxError, parseable } from "./match.js";
import { pythonOutline } from "./outline-python.js";

export const TOOL = "list_definitions";

/** The body escaped like XML text, so a docstring cannot close the envelope. */
const bodyLine = (line: string) => line.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const definitionsError = (kind: string, shown: string, error: string): ToolResult =>
  fail(errorEnvelope(TOOL, kind, [["path", shown]], error), errorDisplay(error));

/** A hidden file is as absent as a missing one: its content is never parsed. */
export function errorKind(error: string): string {
  if (error.includes("file not found") || isHiddenRefusal(error)) return "not_found";
  return error.includes("is a directory") ? "is_directory" : "path_outside_cwd";
}

export async function runOutline(shown: string, ctx: ToolContext): Promise<ToolResult> {
  const where = await locateExistingFile(ctx.services.fs, ctx.cwd, shown, {
    directory: `ERROR: ${shown} is a directory: list_definitions outlines one Python file; pass repo_wide=true with a symbol to search a directory`,
    access: yujPaths(ctx, "read"),
  });
  if (!where.ok) {
    const kind = errorKind(where.error);
    return definitionsError(kind, shown, where.error);
  }
  const suffix = path.extname(where.abs).toLowerCase();
  if (suffix !== ".py" && suffix !== ".pyi") {
    return definitionsError(
      "unsupported_suffix",
      shown,
      `ERROR: list_definitions outlines Python files only (.py, .pyi), not '${suffix || path.basename(where.abs)}' files. ` +
        "Use repo_wide=true with symbol to find definitions and references in JavaScript, TypeScript, Go, Rust or Java, or read the file.",
    );
  }
  if (ctx.hiddenByRules?.(where.display)) return definitionsError("os_error", shown, `ERROR: permission denied: a rule keeps ${where.display} from being read`);
  if (tooLarge(where.size)) return definitionsError("os_error", shown, `ERROR: ${shown} is too large to outline ${sizeAndLimit(where.size)}`);
  let text: string;
  try {
    // Undecodable bytes become U+FFFD: an outline needs names, not every byte.
    text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await ctx.services.fs.readFile(where.abs));
  } catch (err) {
    return definitionsError("os_error", shown, `ERROR: could not read ${shown}: ${(err as Error).message}`);
  }
  let tools;
  try {
    tools = await parserFor("python");
  } catch (err) {
    if (err instanceof GrammarMissing) return definitionsError("backend_unavailable", shown, `ERROR: ${err.message}`);
    throw err;
  }
  const tree = tools.parser.parse(parseable(text));
  tools.parser.delete();
  if (!tree) return definitionsError("os_error", shown, `ERROR: could not parse ${shown}`);
  try {
    const broken = firstSyntaxError(tree.rootNode);
    if (broken) {
      return definitionsError(
        "syntax_error",
        shown,
        `ERROR: SyntaxError in ${shown} at line ${broken.row + 1}: invalid syntax. Cannot extract definitions from a file that does not parse.`,
      );
    }
    const { surface, definitions } = pythonOutline(tree.rootNode);
    const attrs: Attr[] = [["path", shown], ["count", definitions.length], ["surface", surface.length]];
    if (!surface.length && !definitions.length) {
      const none = "(no module surface or definitions found)";
      return ok(envelope(TOOL, attrs, [none]), { kind: "text", text: none });
    }
    const body = [
      ...(surface.length ? ["# module surface", ...surface] : []),
      ...(surface.length && definitions.length ? [""] : []),
      ...(definitions.length ? ["# definitions", ...definitions] : []),
    ];
    // The person reads the outline's lines as they are; only the model's envelope escapes them.
    return ok(envelope(TOOL, attrs, body.map(bodyLine)), { kind: "text", text: body.join("\n") });
  } finally {
    tree.delete();
  }
}
