// What a call will do, in the words of an approval prompt: the command for a
// shell, the path and the change for a file tool, the patch for a patch tool.

const MAX_DETAIL_CHARS = 4000;

export function describeCall(tool: string, args: Record<string, unknown>): { summary: string; detail?: string } {
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const command = str("cmd") ?? str("command");
  if (command !== undefined) return { summary: `${tool}: ${oneLine(command)}`, ...(command.includes("\n") ? { detail: clip(command) } : {}) };
  const path = str("path") ?? str("file_path");
  if (str("old_str") !== undefined || str("old_string") !== undefined) {
    const before = str("old_str") ?? str("old_string") ?? "";
    const after = str("new_str") ?? str("new_string") ?? "";
    return { summary: `${tool}: ${path ?? "(no path)"}`, detail: clip(minusPlus(before, after)) };
  }
  if (str("content") !== undefined && path !== undefined) {
    const content = str("content")!;
    return { summary: `${tool}: ${path} (${Buffer.byteLength(content)} bytes)`, detail: clip(content) };
  }
  if (str("patch") !== undefined) return { summary: `${tool}: patch of ${str("patch")!.split("\n").length} lines`, detail: clip(str("patch")!) };
  if (path !== undefined) return { summary: `${tool}: ${path}` };
  const json = JSON.stringify(args);
  return { summary: `${tool}: ${oneLine(json)}` };
}

function minusPlus(before: string, after: string): string {
  const minus = before.split("\n").map((l) => `- ${l}`);
  const plus = after.split("\n").map((l) => `+ ${l}`);
  return [...minus, ...plus].join("\n");
}

function oneLine(s: string): string {
  const first = s.split("\n")[0]!;
  const line = first.length > 200 ? `${first.slice(0, 199)}…` : first;
  return s.includes("\n") ? `${line} …` : line;
}

function clip(s: string): string {
  return s.length > MAX_DETAIL_CHARS ? `${s.slice(0, MAX_DETAIL_CHARS)}\n… (${s.length - MAX_DETAIL_CHARS} more chars)` : s;
}
