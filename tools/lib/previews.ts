// What a change will look like, built from its arguments before it runs:
// the view shows it while the call runs, and until a result says more.

import type { ToolDisplay } from "../../core/tool-types.js";
import { shownPath, str } from "./view.js";

/** Lines of a whole-file write the card shows; the rest is counted. */
const WRITE_PREVIEW_LINES = 20;

export function writePreview(path: string | undefined, content: string | undefined, cwd: string): ToolDisplay | undefined {
  if (path === undefined || content === undefined) return undefined;
  const all = content === "" ? [] : content.replace(/\n$/, "").split("\n");
  return {
    kind: "write",
    path: shownPath(path, cwd),
    bytes: Buffer.byteLength(content),
    lines: all.slice(0, WRITE_PREVIEW_LINES),
    totalLines: all.length,
  };
}

export function replacePreview(path: string | undefined, before: string | undefined, after: string | undefined, cwd: string): ToolDisplay | undefined {
  if (before === undefined && after === undefined) return undefined;
  return { kind: "replace", path: path === undefined ? "" : shownPath(path, cwd), before: before ?? "", after: after ?? "" };
}

/** A command about to run: the view shows it (in full when it spans lines). */
export function commandPreview(command: string | undefined): ToolDisplay | undefined {
  return command === undefined ? undefined : { kind: "command", command, output: "", status: "running" };
}

export function patchPreview(args: Record<string, unknown>, key: string): ToolDisplay | undefined {
  const text = str(args, key);
  return text === undefined ? undefined : { kind: "patch", text };
}
