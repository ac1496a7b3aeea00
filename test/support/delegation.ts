// A Chord project for delegation tests: a scripted scenario with the main
// agent's turns and each worker's own (by task id or role), the rules that
// let the main agent delegate, and readers for the session's records.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readHistoryLog } from "../../core/history-log.js";

export function delegationProject(
  scenario: { turns: unknown[]; agents?: Record<string, { turns: unknown[] }>; fallback_text?: string },
  opts: { files?: Record<string, string>; toml?: string; rules?: string } = {},
): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-delegate-")));
  const files = { ...opts.files, "scenario.json": JSON.stringify({ fallback_text: "(waiting for my workers)", ...scenario }) };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  const rules = opts.rules ?? '[[permissions.rules]]\ntool = "delegate"\naction = "allow"\n';
  writeFileSync(join(cwd, "chord.toml"), `profile = "chord"\n[provider]\nname = "scripted"\nscenario = "scenario.json"\n${rules}${opts.toml ?? ""}`);
  return cwd;
}

export interface Row {
  type: string;
  [key: string]: any;
}

export const rowsOf = (text: string): Row[] =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Row];
      } catch {
        return [];
      }
    });

export function sessionDirOf(env: Record<string, string>): string {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const [id] = readdirSync(root).filter((d) => !d.startsWith("."));
  return join(root, id!);
}

/** The main agent's saved history (user rows' text). */
export function mainHistory(sessionDir: string): Array<{ role: string; text?: string; name?: string }> {
  return (readHistoryLog(sessionDir)?.history ?? []) as Array<{ role: string; text?: string; name?: string }>;
}

export function workerHistory(sessionDir: string, taskId: string): Array<{ role: string; text?: string; name?: string; isError?: boolean }> {
  const file = join(sessionDir, "tasks", taskId, "history.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).history : [];
}

/** How many times each mailbox message id appears in a history's user rows: a delivery is one appearance. */
export function deliveries(history: Array<{ role: string; text?: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of history) {
    if (item.role !== "user" || !item.text) continue;
    for (const m of item.text.matchAll(/\[mailbox (m-\d+)\]/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  }
  return counts;
}

export function storeRows(sessionDir: string): Row[] {
  const file = join(sessionDir, "orchestration.jsonl");
  return existsSync(file) ? rowsOf(readFileSync(file, "utf8")) : [];
}

/** A main-agent shell call that waits (at most 20 s) until the session's orchestration log holds `pattern`. */
export const untilLog = (pattern: string) => ({
  name: "shell",
  arguments: {
    description: "wait",
    command: `for i in $(seq 1 400); do grep -q '${pattern}' "$XDG_STATE_HOME"/yuj/sessions/*/orchestration.jsonl && exit 0; sleep 0.05; done; exit 1`,
  },
});
