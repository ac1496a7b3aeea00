// `yuj replay ID`: runs a recorded session again from its trace and reports
// the first request that differs from the recording (every one, with
// --allow-divergence). Same requests in, same responses out, is the proof
// that a session's trace holds everything the run depended on.

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { FatalError } from "../errors.js";
import { findSession } from "../find-session.js";
import { excerpt } from "../replay/compare.js";
import { readRecording } from "../replay/recording.js";
import { runReplay, type ReplayResult } from "../replay/run.js";
import type { Difference } from "../replay/watch.js";
import { safeText } from "../../core/text/safe.js";

export async function replayCommand(args: ParsedArgs, version: string): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError("yuj replay takes one session id (or a unique prefix): yuj replay ID");
  const id = args.positionals[0]!;
  const source = findSession(process.env, process.cwd(), id);
  const recording = readRecording(source.dir, source.state);
  if (!recording.snapshot.tree) {
    throw new FatalError(
      `session ${source.state.sessionId} cannot be replayed: it has no workspace snapshot (${recording.snapshot.unavailable ?? "none recorded"}); ` +
        "only sessions started inside a git work tree can be",
    );
  }
  const jsonl = args.output === "jsonl";
  const result = await runReplay({
    source,
    recording,
    args,
    version,
    allowDivergence: args.allowDivergence === true,
    ...(jsonl ? { onEvent: (line: string) => void process.stdout.write(`${line}\n`) } : {}),
  });
  const lines = reportLines(source.state.sessionId, result, args.allowDivergence === true);
  // Excerpts of requests carry the model's and the tools' text: made safe to print.
  (jsonl ? process.stderr : process.stdout).write(`${safeText(lines.join("\n"))}\n`);
  const countsDiffer = result.replayed !== result.recorded;
  return result.differences.length || countsDiffer || result.unreproducible ? 1 : 0;
}

export function reportLines(id: string, r: ReplayResult, allowDivergence: boolean): string[] {
  const lines: string[] = [];
  const n = r.recorded;
  if (r.differences.length === 0 && r.replayed === n && !r.unreproducible) {
    lines.push(`replay of ${id}: ${n} request${n === 1 ? "" : "s"}, no difference`);
  } else if (r.differences.length === 0) {
    lines.push(`replay of ${id}: the ${Math.min(n, r.replayed)} request${n === 1 ? "" : "s"} both made are the same`);
  }
  const shown = allowDivergence ? r.differences : r.differences.slice(0, 1);
  for (const d of shown) lines.push(...differenceLines(id, d, n));
  if (r.replayed < n && (allowDivergence || r.differences.length === 0)) {
    lines.push(`the replay made ${r.replayed} requests, the recording has ${n} (it ended: ${r.reason})`);
  } else if (r.replayed > n) {
    lines.push(`the replay made ${r.replayed} requests, the recording has ${n}: the extra ones got an error`);
  }
  if (allowDivergence && r.differences.length > 1) lines.push(`${r.differences.length} requests differ`);
  if (r.unreproducible) lines.push(`replay of ${id} cannot be reproduced exactly: ${r.unreproducible}`);
  for (const note of r.notes) lines.push(`note: ${note}`);
  lines.push(`replayed as session ${r.sessionId}`);
  return lines;
}

function differenceLines(id: string, d: Difference, n: number): string[] {
  return [
    `replay of ${id}: request ${d.index + 1} of ${n} differs${d.turn !== undefined ? ` (turn ${d.turn})` : ""}, at character ${d.at}`,
    `  recorded: ${excerpt(d.recorded, d.at)}`,
    `  replayed: ${excerpt(d.replayed, d.at)}`,
  ];
}
