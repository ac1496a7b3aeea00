// The jobs overlay: the session's background jobs (a foreground command
// shows in the activity line and its own card), and the live tail of the
// selected one's output. j/k and the arrows move, as everywhere else; `x`
// asks to kill the selected job and `y` (or `x` again) confirms.

import { Box, Text, useInput } from "ink";
import { useRef, useState, type MutableRefObject, type ReactNode } from "react";
import type { KeyHandler } from "./Composer.js";
import type { JobView } from "../core/reducer.js";
import { stripEscapes } from "../core/text/escapes.js";
import { oneLine, screenOutput } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import { formatBytes, formatElapsed, since, theme } from "./theme.js";

export interface JobsPanelProps {
  jobs: JobView[];
  now: number;
  onKill(jobId: string): void;
  onClose(): void;
  width: number;
  height: number;
  /** False while something else has the keys. */
  active?: boolean;
  /** Set: keys come only through this handler, which the view calls (see the composer's). */
  keys?: MutableRefObject<KeyHandler | undefined>;
}

const HINT = "↑/↓ or j/k select · x kill · Esc/q close";

function jobStatusText(job: JobView): { text: string; color: string } {
  switch (job.status) {
    case "running":
      return { text: "● running", color: theme.warn };
    case "stopping":
      return { text: "◌ stopping", color: theme.muted };
    case "killed":
      return { text: "✗ killed", color: theme.error };
    case "timed_out":
      return { text: "✗ timed out", color: theme.error };
    case "exited":
      if (job.exitCode === 0) return { text: "✓ exit 0", color: theme.ok };
      if (job.exitCode == null) return { text: `✗ ${job.signal ?? "ended"}`, color: theme.error };
      return { text: `✗ exit ${job.exitCode}`, color: theme.error };
  }
}

export function JobsPanel({ jobs, now, onKill, onClose, width, height, active = true, keys }: JobsPanelProps): ReactNode {
  const sorted = sortJobs(jobs.filter((j) => j.background));
  // The selection follows a job id, not a row, so new jobs don't move it. It
  // lives in a ref, and the handler reads the live props: keys can arrive
  // before React has re-subscribed the handler of the last render.
  const picked = useRef<string | undefined>(undefined);
  // The job a first `x` asked to kill; any other key drops the question.
  const confirming = useRef<string | undefined>(undefined);
  const [note, setNote] = useState("");
  const [, rerender] = useState(0);
  const live = useRef({ jobs, onKill, onClose });
  live.current = { jobs, onKill, onClose };
  const selected = selectedJob(sorted, picked.current);
  const index = selected ? sorted.indexOf(selected) : -1;

  const onKey: KeyHandler = (input, key) => {
    const { jobs: all, onKill: kill, onClose: close } = live.current;
    const list = sortJobs(all.filter((j) => j.background));
    const sel = selectedJob(list, picked.current);
    const asked = confirming.current;
    confirming.current = undefined;
    if (asked && sel?.jobId === asked && (input === "y" || input === "x")) {
      if (sel.status === "running") {
        kill(sel.jobId);
        setNote(`kill sent to ${sel.jobId}`);
      } else setNote(`${sel.jobId} is not running`);
      return;
    }
    if (asked) setNote("");
    if (key.escape || input === "q") return asked ? rerender((n) => n + 1) : close();
    if (!sel) return;
    const move = (d: number) => {
      const i = list.indexOf(sel);
      picked.current = list[Math.max(0, Math.min(list.length - 1, i + d))]!.jobId;
      setNote("");
      rerender((n) => n + 1);
    };
    if (key.upArrow || input === "k") move(-1);
    else if (key.downArrow || input === "j") move(1);
    else if (input === "x") {
      if (sel.status !== "running") return setNote(`${sel.jobId} is not running`);
      confirming.current = sel.jobId;
      setNote(`kill ${sel.jobId} (${oneLine(sel.label ?? sel.command)})? y or x to confirm, any other key to keep it`);
    }
  };
  if (keys) keys.current = onKey;
  useInput(onKey, { isActive: active && !keys });

  // Rows: title, list, a rule with the selected command, the tail, the hint.
  const listRows = Math.max(1, Math.min(sorted.length, Math.floor((height - 4) / 3)));
  const first = Math.max(0, Math.min(index - listRows + 1, sorted.length - listRows));
  const visible = sorted.slice(first, first + listRows);
  const tailRows = Math.max(0, height - 4 - Math.max(1, visible.length));
  const tail = selected ? tailLines(selected.output, tailRows, width) : [];

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold>
        JOBS{" "}
        <Text color={theme.muted}>
          {sorted.length} total, {sorted.filter((j) => j.status === "running").length} running
        </Text>
      </Text>
      {sorted.length === 0 ? <Text color={theme.muted}>No background jobs in this session.</Text> : null}
      {visible.map((job) => {
        const here = job === selected;
        const status = jobStatusText(job);
        const elapsed = formatElapsed(job.status === "running" || job.durationMs === undefined ? since(job.startedAt, now) : job.durationMs);
        const label = oneLine(job.label ?? job.command);
        const head = `${here ? "›" : " "} ${job.jobId.padEnd(6)} `;
        const rest = ` ${elapsed.padStart(6)}  ${label}`;
        return (
          <Text key={job.jobId} wrap="truncate" bold={here}>
            <Text color={here ? theme.accent : undefined}>{head}</Text>
            <Text color={status.color}>{status.text.padEnd(11)}</Text>
            {truncate(rest, Math.max(0, width - head.length - 11))}
          </Text>
        );
      })}
      {selected ? (
        <Text color={theme.muted} wrap="truncate">
          {truncate(`── ${selected.jobId}: ${oneLine(selected.command)} (${formatBytes(selected.totalBytes)}) `, width)}
        </Text>
      ) : null}
      {tail.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line || " "}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text color={theme.muted} wrap="truncate">
        {note ? `${note} · ${HINT}` : HINT}
      </Text>
    </Box>
  );
}

function sortJobs(jobs: JobView[]): JobView[] {
  return [...jobs].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** The picked job, else the newest running one, else the newest. */
function selectedJob(sorted: JobView[], picked: string | undefined): JobView | undefined {
  return (
    sorted.find((j) => j.jobId === picked) ??
    [...sorted].reverse().find((j) => j.status === "running") ??
    sorted[sorted.length - 1]
  );
}

/** The last lines of output that fit, neutralised and cut to the width. */
function tailLines(output: string, rows: number, width: number): string[] {
  if (rows <= 0) return [];
  // Only the end can be shown: cleaning the whole kept output every tick is waste.
  // A job's live output is a terminal's: its colour and cursor codes are dropped, not shown.
  const lines = screenOutput(stripEscapes(output.slice(-Math.max(4096, rows * (width + 1) * 4)))).replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && lines[0] === "") return ["(no output yet)"];
  return lines.slice(-rows).map((l) => truncate(l, width));
}
