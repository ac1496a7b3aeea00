// The App's subscriptions to the world outside React: the terminal's size,
// the Markdown renderer finishing its load, a clock that ticks only while a
// request is in flight, and git's status once a turn ends.

import { useEffect, useRef, useState } from "react";
import { loadMarkdown, onMarkdownReady } from "./cards/markdown.js";
import { readGitStatus } from "./git-status.js";

type Stdout = NodeJS.WriteStream;
export type GitStatus = Awaited<ReturnType<typeof readGitStatus>>;

/** Columns and rows, updated on every resize. */
export function useTerminalSize(stdout: Stdout): { columns: number; rows: number } {
  const [size, setSize] = useState({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout]);
  return size;
}

/** Markdown loads in the background; the App repaints once it can be used. */
export function useMarkdownRepaint(): void {
  const [, setMarkdownReady] = useState(0);
  useEffect(() => {
    const off = onMarkdownReady(() => setMarkdownReady((n) => n + 1));
    void loadMarkdown();
    return () => void off();
  }, []);
}

/** The time, for elapsed-time displays: it ticks only while `busy`, so idle costs nothing. */
export function useBusyClock(busy: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [busy]);
  return now;
}

/**
 * Git status for the side panel, read when a request ends (changed files
 * appear there): once per turn, one read at a time, never per card.
 */
export function useGitStatus(cwd: string, shown: boolean, idle: boolean, turn: number): GitStatus | undefined {
  const [git, setGit] = useState<GitStatus>();
  const reading = useRef(false);
  useEffect(() => {
    if (!shown || !idle || reading.current) return;
    reading.current = true;
    void readGitStatus(cwd)
      .then(setGit)
      .finally(() => (reading.current = false));
  }, [shown, idle, turn, cwd]);
  return git;
}
