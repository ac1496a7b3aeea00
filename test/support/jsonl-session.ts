// Drives the built `yuj` as a script would with `--input jsonl`: operations
// written to its stdin one JSON line at a time while its events are read
// from stdout as they come, each one checked against the published schema.

import { spawn } from "node:child_process";
import { coreEventSchema } from "../../core/event-schema.js";
import type { Operation } from "../../core/ops.js";
import { yujBin, type CliResult } from "./cli.js";

// Events are read as plain JSON: a test looks at any field it likes.
export type Event = Record<string, any> & { type: string; seq: number };

export interface JsonlSession {
  events: Event[];
  /** Writes one operation (or a raw line, to send what is not one). */
  send(op: Operation | string): void;
  /** The first event from position `from` on that matches; waits for it. */
  waitFor(match: (e: Event) => boolean, what: string, from?: number): Promise<Event>;
  /** Waits until stdout so far matches (for the text transcript). */
  waitForText(pattern: RegExp, what: string): Promise<string>;
  /** Closes stdin: nobody will answer any more. */
  end(): void;
  done: Promise<CliResult & { schemaProblems: string[] }>;
}

export function startJsonlSession(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number; /** stdout is the text transcript, not events */ text?: boolean },
): JsonlSession {
  const child = spawn(process.execPath, [yujBin, ...args], { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
  const events: Event[] = [];
  const schemaProblems: string[] = [];
  const waiters = new Set<() => void>();
  let stdout = "";
  let stderr = "";
  let partial = "";
  const readEvents = (d: Buffer) => {
    partial += d;
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const event = JSON.parse(line) as Event;
      const checked = coreEventSchema.safeParse(event);
      if (!checked.success) schemaProblems.push(`${event.type}: ${checked.error.message}`);
      events.push(event);
    }
  };
  child.stdout.on("data", (d: Buffer) => {
    stdout += d;
    if (!opts.text) readEvents(d);
    for (const w of waiters) w();
  });
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  const done = new Promise<CliResult & { schemaProblems: string[] }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      for (const w of waiters) w();
      resolve({ code, stdout, stderr, schemaProblems });
    });
  });
  let exited = false;
  void done.then(() => (exited = true));
  return {
    events,
    send(op) {
      child.stdin.write(`${typeof op === "string" ? op : JSON.stringify(op)}\n`);
    },
    waitForText(pattern, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(stdout)) {
            waiters.delete(check);
            resolve(stdout);
          } else if (exited) {
            waiters.delete(check);
            reject(new Error(`yuj exited before ${what}; stdout:\n${stdout}\nstderr:\n${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    waitFor(match, what, from = 0) {
      return new Promise((resolve, reject) => {
        const fail = (why: string) => {
          waiters.delete(check);
          clearTimeout(limit);
          reject(new Error(`${why} ${what}; stderr:\n${stderr}\nevents: ${events.map((e) => e.type).join(" ")}`));
        };
        const limit = setTimeout(() => fail("gave up waiting for"), 20_000);
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(limit);
            resolve(found);
          } else if (exited) fail("yuj exited before");
        };
        waiters.add(check);
        check();
      });
    },
    end() {
      child.stdin.end();
    },
    done,
  };
}
