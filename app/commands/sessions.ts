// `yuj sessions`: every stored session, newest first. `yuj current`: the id
// of the newest session in this directory (`yuj show $(yuj current)`).

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { firstLine } from "../../core/session-state.js";
import { oneLine } from "../../core/text/safe.js";
import { widthOf } from "../../core/text/width.js";
import { FatalError } from "../errors.js";
import { listSessions, sessionsRoot, type ListedSession } from "../find-session.js";
import { reportJson } from "../session-report.js";

export async function sessionsCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length) throw new UsageError(`yuj ${args.command} takes no arguments`);
  const all = listSessions(process.env);
  const json = args.output === "json";
  if (args.command === "current") {
    const cwd = process.cwd();
    const hit = all.find((s) => s.meta.cwd === cwd);
    if (!hit) throw new FatalError(`no session in ${cwd} yet (\`yuj sessions\` lists them all)`);
    process.stdout.write(json ? reportJson(row(hit)) : `${oneLine(hit.meta.id)}\n`);
    return 0;
  }
  if (json) {
    process.stdout.write(reportJson(all.map(row)));
    return 0;
  }
  if (all.length === 0) {
    process.stdout.write(`No sessions yet (they are kept under ${oneLine(sessionsRoot(process.env))}).\n`);
    return 0;
  }
  // Cells are stored text (a task, a directory name): one safe line each, padded by display width.
  const cells = (s: ListedSession) => [s.meta.id, s.status, when(s.meta.updatedAt), s.meta.cwd, firstLine(s.meta.title)].map(oneLine);
  const table = [["ID", "STATUS", "UPDATED (UTC)", "CWD", "TASK"], ...all.map(cells)];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((r) => widthOf(r[col]!))));
  const pad = (cell: string, width: number) => cell + " ".repeat(Math.max(0, width - widthOf(cell)));
  const lines = table.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : pad(cell, widths[col]!))).join("  ").trimEnd());
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

function row(s: ListedSession) {
  return {
    id: s.meta.id,
    status: s.status,
    updatedAt: s.meta.updatedAt,
    createdAt: s.meta.createdAt,
    cwd: s.meta.cwd,
    task: s.meta.title,
    dir: s.dir,
    ...(s.meta.question ? { question: s.meta.question } : {}),
  };
}

function when(iso: string): string {
  return iso.slice(0, 19).replace("T", " ");
}
