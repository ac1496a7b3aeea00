// The first model request of a new `yuj code "task"` session, sent from the
// entry while the rest of yuj loads (some 100 ms). An earlier run of the same
// command left a template (see app/speculative-template.ts): the request it
// sent, split around the task's text, with every input its start-up
// consulted (config, profile, instructions, skills, trust state: each file
// or folder looked up, present or absent) fingerprinted. The template is
// found by a key of the build, the cwd, the argv (the task left out), the
// whole environment and the date; it is used only when every input it lists
// is as it was. The full path then builds its own first request and takes
// the speculative one's response only when URL, method, every header and the
// body bytes are identical (anthropic-http.ts); otherwise the speculative
// request is destroyed before a byte of its response is read.
//
// Kept small: it is part of the entry chunk (node's built-ins, no zod, no core).

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats } from "node:fs";
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import * as path from "node:path";
import { stateDir, type Env } from "../paths.js";
import { mark } from "../startup-timing.js";

/** What a template holds (never a secret: a header's key is named by its variable). */
export interface RequestTemplate {
  url: string;
  method: string;
  /** Every header but content-length, in order; a value's parts are text or an environment variable's value. */
  headers: Array<[string, Array<string | { env: string }>]>;
  /** The body before and after the task's text (as JSON-escaped in it). */
  body: [string, string];
  /** Each input start-up consulted: its path, its content's print then, and its stat signature when it had settled. */
  inputs: Array<[string, string] | [string, string, string]>;
}

/**
 * What stands in a template's place once the full path refused its request
 * (something start-up does not read from a file differed: an MCP server's
 * tool list, say): no template for this key is sent or written again, so an
 * input that changes on every run costs one aborted request, not one in two.
 * The key holds the date, so the next day tries afresh.
 */
export interface RefusedTemplate {
  refused: true;
}

/** Whether a stored template is the mark of a refused one. */
export function isRefused(t: RequestTemplate | RefusedTemplate): t is RefusedTemplate {
  return (t as RefusedTemplate).refused === true;
}

/** A request sent from the entry, waiting for the full path to adopt or refuse it. */
export interface SpeculativeRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string;
  req: ClientRequest;
  /** The response's headers, or the failure that came before them. */
  outcome: Promise<IncomingMessage | Error>;
  /** The template it came from. */
  file: string;
}

/**
 * What the entry's module and the full path's chunks share. The bundle's
 * chunks are loaded twice over (the entry's ES modules, the run's CommonJS
 * chunks), so module state would not be one: it lives on the global object.
 */
interface Shared {
  pending?: SpeculativeRequest;
  /** The first request has been claimed: later ones never look. */
  claimed?: boolean;
  /** Set by the full path when this run may leave a template: called once its first request is out. */
  onFirstSend?: (sent: SentRequest) => void;
  /** The request this process built itself, for onFirstSend once it is out. */
  built?: SentRequest;
  /** Ends the recording of the inputs start-up consults (consulted-inputs.ts). */
  stopRecording?: () => void;
  agents?: { http: HttpAgent; https: HttpsAgent };
}

export interface SentRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string;
}

const KEY = Symbol.for("yuj.speculative-request");

export function shared(): Shared {
  const g = globalThis as { [KEY]?: Shared };
  return (g[KEY] ??= {});
}

/** Connections kept open between turns, as fetch's pool kept them: one pool for the speculative request and the client. */
export function keepAliveAgents(): { http: HttpAgent; https: HttpsAgent } {
  const s = shared();
  return (s.agents ??= { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) });
}

/** Stands for the task in the key's argv. */
export const TASK_PLACEHOLDER = "\u0000task\u0000";

export function templateDir(env: Env): string {
  return path.join(stateDir(env), "speculative");
}

/** Off with YUJ_NO_SPECULATIVE_REQUEST=1 (no request sent, no template written). */
export function speculationOff(env: Env): boolean {
  return !!env.YUJ_NO_SPECULATIVE_REQUEST && env.YUJ_NO_SPECULATIVE_REQUEST !== "0";
}

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** The template's file name: the build, cwd, argv with the task left out, the whole environment, the date. */
export function templateKey(k: { build: string; cwd: string; argv: string[]; env: Env; date: string }): string {
  const env = Object.entries(k.env)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sha(JSON.stringify([k.build, k.cwd, k.argv, env, k.date]));
}

/** The date the system prompt says (UTC, as it is built). */
export function promptDate(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * A task the template may carry: one argument, as the model gets it. Text
 * start-up could read more from (an `@file` mention), that parses as a flag,
 * or that the run might change, is never spliced.
 */
export function plainTask(text: string): boolean {
  return text.length > 0 && text.trim() === text && !text.startsWith("-") && !text.startsWith("/") && !text.includes("@");
}

/**
 * What a file or folder is now: absent, a file's content hash, a folder's
 * listing hash (when its entries were read; else only that it is a folder,
 * "dir"); and its stat signature (device, inode, size, change and
 * modification times in ns), which a later check compares first, hashing
 * only when it differs. None is given for an entry changed in the last two
 * seconds (a file system with coarse times could hide a change made in the
 * same tick).
 */
export function fingerprint(p: string, listing = true): [string, string] | [string, string, string] {
  let st;
  try {
    st = statSync(p, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    return [p, (err as { code?: string }).code === "ENOTDIR" ? "absent" : "unreadable"];
  }
  if (!st) return [p, "absent"];
  if (st.isDirectory() && !listing) return [p, "dir"];
  const print = contentPrint(p, st.isDirectory(), st.isFile());
  const settled = BigInt(Date.now() - 2000) * 1_000_000n;
  if (st.ctimeNs > settled || st.mtimeNs > settled) return [p, print];
  return [p, print, signature(st)];
}


function signature(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function contentPrint(p: string, dir: boolean, file: boolean): string {
  try {
    if (dir) {
      const names = readdirSync(p, { withFileTypes: true }).map((d) => `${d.name}\u0000${d.isDirectory() ? "d" : d.isFile() ? "f" : "o"}`);
      return `dir:${sha(names.sort().join("\n"))}`;
    }
    return file ? `file:${sha(readFileSync(p))}` : "other";
  } catch {
    return "unreadable";
  }
}

/** Whether an input is as it was recorded: the same stat signature, else the same content. */
function unchanged([p, print, sig]: RequestTemplate["inputs"][number]): boolean {
  let st;
  try {
    st = statSync(p, { bigint: true, throwIfNoEntry: false });
  } catch {
    return fingerprint(p, print !== "dir")[1] === print;
  }
  if (!st) return print === "absent";
  if (print === "dir") return st.isDirectory();
  if (sig !== undefined && signature(st) === sig) return true;
  return contentPrint(p, st.isDirectory(), st.isFile()) === print;
}

declare const YUJ_BUILD_ID: string | undefined;

/** The build's id (a hash of its sources), set by the bundler; a run from the sources has none. */
export function buildId(): string | undefined {
  return typeof YUJ_BUILD_ID === "string" ? YUJ_BUILD_ID : undefined;
}

/** How long the entry lets the event loop run for the request to leave before it loads the rest (which blocks the loop). */
const LEAVE_MS = 3;

/**
 * In the entry, for `yuj code …`: sends the first request from a template
 * that fits this run, if one does, and gives it a moment to leave (a local
 * connection's, not a remote one's handshake). Resolves whether it sent one.
 */
export async function speculate(argv: string[], env: Env, cwd: string): Promise<boolean> {
  if (!sendSpeculativeRequest(argv, env, cwd)) return false;
  const req = shared().pending!.req;
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    timer = setTimeout(resolve, LEAVE_MS);
    req.once("finish", resolve);
    req.once("error", () => resolve());
  });
  clearTimeout(timer);
  return true;
}

function sendSpeculativeRequest(argv: string[], env: Env, cwd: string): boolean {
  const build = buildId();
  if (argv[0] !== "code" || !build || speculationOff(env)) return false;
  const dir = templateDir(env);
  const date = promptDate();
  for (let i = 1; i < argv.length; i++) {
    const task = argv[i]!;
    if (!plainTask(task)) continue;
    const keyed = argv.map((a, j) => (j === i ? TASK_PLACEHOLDER : a));
    const file = path.join(dir, `${templateKey({ build, cwd, argv: keyed, env, date })}.json`);
    let stored: RequestTemplate | RefusedTemplate;
    try {
      stored = JSON.parse(readFileSync(file, "utf8")) as RequestTemplate | RefusedTemplate;
    } catch {
      continue;
    }
    if (isRefused(stored)) return false;
    const template = stored;
    mark("speculative template found");
    if (!template.inputs.every(unchanged)) return false;
    mark("speculative template inputs checked");
    const headers = fill(template.headers, env);
    if (!headers) return false;
    send({ url: template.url, method: template.method, headers, body: template.body[0] + JSON.stringify(task).slice(1, -1) + template.body[1] }, file);
    return true;
  }
  return false;
}

function fill(headers: RequestTemplate["headers"], env: Env): Array<[string, string]> | undefined {
  const out: Array<[string, string]> = [];
  for (const [name, parts] of headers) {
    let value = "";
    for (const part of parts) {
      const text = typeof part === "string" ? part : env[part.env];
      if (text === undefined) return undefined;
      value += text;
    }
    out.push([name, value]);
  }
  return out;
}

function send(sent: SentRequest, file: string): void {
  const url = new URL(sent.url);
  const https = url.protocol === "https:";
  const agents = keepAliveAgents();
  const headers = [...sent.headers, ["content-length", String(Buffer.byteLength(sent.body))] as [string, string]];
  const req = (https ? httpsRequest : httpRequest)(url, {
    method: sent.method,
    headers: Object.fromEntries(headers),
    agent: https ? agents.https : agents.http,
  });
  const outcome = new Promise<IncomingMessage | Error>((resolve) => {
    req.on("response", (res) => {
      // Until adopted, a response destroyed with its request must not fail the process (the reader sees its own errors).
      res.on("error", () => undefined);
      resolve(res);
    });
    req.on("error", resolve);
  });
  mark("speculative request started");
  req.end(sent.body, () => mark("speculative request sent"));
  shared().pending = { ...sent, headers, req, outcome, file };
  // Never adopted (the run ended before its first request, or asked another provider): not left open.
  process.once("exit", () => shared().pending?.req.destroy());
}

/**
 * The full path, about to send its first request: the speculative one when
 * it is this very request (its response to be read instead), else undefined
 * (a differing one is destroyed, and its template removed). Once a process.
 */
export function claimSpeculativeRequest(sent: SentRequest): SpeculativeRequest | undefined {
  const s = shared();
  if (s.claimed) return undefined;
  s.claimed = true;
  const pending = s.pending;
  s.pending = undefined;
  s.stopRecording?.();
  if (pending && identical(pending, sent)) return pending;
  if (pending) {
    pending.req.destroy();
    void pending.outcome.then((r) => void ("destroy" in r && typeof r.destroy === "function" && r.destroy()));
    mark("speculative request refused");
    markRefused(pending.file);
  }
  // A template comes from a request this process built itself, never from an adopted one.
  s.built = sent;
  return undefined;
}

/** The template's file replaced by the refused mark (atomically: a reader sees one or the other). */
function markRefused(file: string): void {
  const tmp = `${file}.${process.pid}.refused.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ refused: true } satisfies RefusedTemplate), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // Cannot write there: removing the template is the next best.
    for (const f of [tmp, file]) rmSync(f, { force: true });
  }
}

/** The first request is out (its last byte written): a template may be written from it, off the critical path. */
export function firstRequestSent(): void {
  const s = shared();
  const { onFirstSend, built } = s;
  s.onFirstSend = s.built = undefined;
  if (onFirstSend && built) setImmediate(() => onFirstSend(built));
}

function identical(a: SentRequest, b: SentRequest): boolean {
  return (
    a.url === b.url &&
    a.method === b.method &&
    a.body === b.body &&
    a.headers.length === b.headers.length &&
    a.headers.every(([n, v], i) => b.headers[i]![0] === n && b.headers[i]![1] === v)
  );
}
