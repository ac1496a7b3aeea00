// The template a new headless session's first request leaves for the next
// run of the same command to send from the entry (core/providers/
// speculative-request.ts). Left only when nothing but the inputs start-up
// consulted, the command line and the environment shapes that request: a
// new session (no resume, no JSONL operator on stdin), no hook that runs
// before the request (session start, before a model call), the Anthropic
// stream through yuj's own client. MCP servers' tools go in as this run
// listed them: a server whose list differs next time is caught by the byte
// comparison, and that key is marked refused (RefusedTemplate). Written after the request
// is out. No secret is ever written: the API key is named by the variable
// it came from, and a template that would hold any other secret value is
// not written at all.

import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { consultedInputs } from "../core/providers/consulted-inputs.js";
import {
  buildId,
  isRefused,
  plainTask,
  promptDate,
  shared,
  speculationOff,
  TASK_PLACEHOLDER,
  templateDir,
  templateKey,
  type RefusedTemplate,
  type RequestTemplate,
  type SentRequest,
} from "../core/providers/speculative-request.js";
import { stateDir, type Env } from "../core/paths.js";
import { secretValues } from "../core/redact.js";
import type { ParsedArgs } from "./args.js";
import type { ProviderChoice } from "./provider-select.js";
import type { Resolved } from "./session.js";

/**
 * The hooks that run before the first request and could change it, or what
 * it is built from after start-up read it: the others run after its response.
 */
const BEFORE_FIRST_REQUEST = ["on_session_start", "on_before_llm_call"];

/** Templates kept: the most recently written. */
const KEPT = 32;

export interface TemplateOffer {
  args: ParsedArgs;
  task: string;
  env: Env;
  cwd: string;
  resolved: Resolved;
  choice: ProviderChoice;
  /** A stored session continued, a demo: never. */
  fresh: boolean;
}

/** Called once start-up resolved the run: arranges for its first request to leave a template, when it may. */
export function offerSpeculativeTemplate(offer: TemplateOffer): void {
  const argv = process.argv.slice(2);
  const build = buildId();
  const taskAt = argv.indexOf(offer.task);
  const date = promptDate();
  if (!build || !eligible(offer, argv) || taskAt < 1 || argv.lastIndexOf(offer.task) !== taskAt) {
    consultedInputs();
    return;
  }
  shared().onFirstSend = (sent) => {
    try {
      // Another day since start-up began: the body says the older one.
      if (promptDate() !== date) return;
      const keyed = argv.map((a, i) => (i === taskAt ? TASK_PLACEHOLDER : a));
      const template = templateFrom(sent, offer);
      if (!template) return;
      const key = templateKey({ build, cwd: offer.cwd, argv: keyed, env: offer.env, date });
      writeTemplate(templateDir(offer.env), `${key}.json`, JSON.stringify(template));
    } catch {
      // Best effort: without a template the next run sends its request as usual.
    }
  };
}

function eligible(o: TemplateOffer, argv: string[]): boolean {
  const hooks = BEFORE_FIRST_REQUEST.some((point) => {
    const entries = (o.resolved.config.hooks as Record<string, unknown>)[point];
    return Array.isArray(entries) && entries.length > 0;
  });
  return (
    o.fresh &&
    argv[0] === "code" &&
    !speculationOff(o.env) &&
    o.choice.name === "anthropic" &&
    o.args.input !== "jsonl" &&
    !o.args.loop &&
    !o.args.measure &&
    !hooks &&
    plainTask(o.task)
  );
}

/** The request as a template, or undefined when it cannot be one (the task not where the model reads it, a secret in it). */
function templateFrom(sent: SentRequest, o: TemplateOffer): RequestTemplate | undefined {
  const inputs = consultedInputs();
  const body = splitAroundTask(sent.body, o.task);
  if (!inputs || !body) return undefined;
  const headers: RequestTemplate["headers"] = [];
  for (const [name, value] of sent.headers) {
    if (name === "content-length") continue;
    const parts = o.choice.apiKey ? withKeyVariable(value, o.choice.apiKey, o.env) : [value];
    if (!parts) return undefined;
    headers.push([name, parts]);
  }
  const template: RequestTemplate = { url: sent.url, method: sent.method, headers, body, inputs: [...ownInputsLeftOut(inputs, o.env)] };
  const text = JSON.stringify(template);
  const secrets = secretValues(o.env, o.choice.secrets);
  if (secrets.some((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)))) return undefined;
  return template;
}

/** A header's value with the key as the variable it was read from (verbatim), or undefined when it came from none. */
function withKeyVariable(value: string, key: string, env: Env): RequestTemplate["headers"][number][1] | undefined {
  if (!value.includes(key)) return [value];
  const name = Object.keys(env)
    .sort()
    .find((n) => env[n] === key);
  if (!name) return undefined;
  const parts: RequestTemplate["headers"][number][1] = [];
  value.split(key).forEach((text, i) => {
    if (i > 0) parts.push({ env: name });
    if (text) parts.push(text);
  });
  return parts;
}

/**
 * The body before and after the task's text: the one place where putting
 * another text gives the same request with that text as the only message.
 */
function splitAroundTask(body: string, task: string): [string, string] | undefined {
  const escaped = JSON.stringify(task).slice(1, -1);
  const sentinel = "\u0001yuj-task\u0001";
  const whole = JSON.parse(body) as { messages?: unknown };
  if (messageText(whole) !== task) return undefined;
  const wholeText = JSON.stringify(whole);
  for (let at = body.indexOf(escaped); at >= 0; at = body.indexOf(escaped, at + 1)) {
    const before = body.slice(0, at);
    const after = body.slice(at + escaped.length);
    let other: { messages?: unknown };
    try {
      other = JSON.parse(before + JSON.stringify(sentinel).slice(1, -1) + after) as { messages?: unknown };
    } catch {
      continue;
    }
    if (messageText(other) !== sentinel) continue;
    setMessageText(other, task);
    if (JSON.stringify(other) === wholeText) return [before, after];
  }
  return undefined;
}

type Block = { type?: unknown; text?: unknown };
type Message = { role?: unknown; content?: unknown };

/** The text of the one user message, when the body has exactly that. */
function messageText(body: { messages?: unknown }): string | undefined {
  const messages = body.messages as Message[] | undefined;
  if (!Array.isArray(messages) || messages.length !== 1 || messages[0]!.role !== "user") return undefined;
  const content = messages[0]!.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length === 1 && (content[0] as Block).type === "text") {
    const text = (content[0] as Block).text;
    return typeof text === "string" ? text : undefined;
  }
  return undefined;
}

function setMessageText(body: { messages?: unknown }, text: string): void {
  const message = (body.messages as Message[])[0]!;
  if (typeof message.content === "string") message.content = text;
  else (message.content as Block[])[0]!.text = text;
}

/**
 * The consulted inputs but yuj's own code and the state it writes as it
 * runs: the bundle (its chunks, their code cache: the build's id stands for
 * them), the templates, the sessions and the running processes' records
 * (new every run); and the kernel's views of processes (/proc, /sys: which
 * process started when, never a setting).
 */
function* ownInputsLeftOut(inputs: Map<string, RequestTemplate["inputs"][number]>, env: Env): Generator<RequestTemplate["inputs"][number]> {
  const state = stateDir(env);
  const own = [
    path.dirname(fileURLToPath(import.meta.url)),
    path.join(state, "code-cache"),
    templateDir(env),
    path.join(state, "sessions"),
    path.join(state, "running"),
    "/proc",
    "/sys",
  ];
  for (const [p, input] of inputs) {
    if (!own.some((dir) => p === dir || p.startsWith(dir + path.sep))) yield input;
  }
}

/** Atomically (a temporary file renamed over), readable by the user alone; the oldest beyond KEPT removed. */
function writeTemplate(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (refusedBefore(path.join(dir, name))) return;
  const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path.join(dir, name));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ f, at: statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of files.slice(KEPT)) unlinkSync(path.join(dir, f));
}

/** A template of this key was refused today: none is written again (speculative-request.ts, RefusedTemplate). */
function refusedBefore(file: string): boolean {
  try {
    return isRefused(JSON.parse(readFileSync(file, "utf8")) as RequestTemplate | RefusedTemplate);
  } catch {
    return false;
  }
}
