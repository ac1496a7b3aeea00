// Every file and folder the start-up of a run looks up before its first
// model request (config files, the trust store, the profile, AGENTS.md and
// the folders above, skills folders, …), present or absent, with its
// fingerprint at that moment: what a speculative request's template must
// find unchanged (speculative-request.ts). Recorded at the file system's
// door rather than listed by each loader, so an input a loader starts
// reading later cannot be missed: node:fs (sync, callback and promise forms)
// is wrapped from the entry until the first request is claimed.

import { createRequire } from "node:module";
import * as path from "node:path";
import { fingerprint, shared } from "./speculative-request.js";

const SYNC = ["readFileSync", "existsSync", "statSync", "lstatSync", "readdirSync", "accessSync", "openSync", "realpathSync", "opendirSync"];
const CALLBACK = ["readFile", "stat", "lstat", "readdir", "access", "exists", "open", "realpath", "opendir", "createReadStream"];
const PROMISES = ["readFile", "stat", "lstat", "readdir", "access", "open", "realpath", "opendir"];
/** The calls that read a folder's entries: only they make its listing an input (a stat or realpath of it, its being a folder). */
const LISTING = new Set(["readdirSync", "opendirSync", "readdir", "opendir"]);

const KEY = Symbol.for("yuj.consulted-inputs");

interface Recording {
  inputs: Map<string, ReturnType<typeof fingerprint>>;
  restore: Array<() => void>;
}

function recording(): { current?: Recording } {
  const g = globalThis as { [KEY]?: { current?: Recording } };
  return (g[KEY] ??= {});
}

/** Starts recording what is consulted (in the entry, before anything reads). */
export function recordConsultedInputs(): void {
  const r: Recording = { inputs: new Map(), restore: [] };
  recording().current = r;
  // The CommonJS view: what every chunk of the bundle calls through.
  const cjsFs = createRequire(import.meta.url)("node:fs") as Record<string, unknown> & { promises: Record<string, unknown> };
  let busy = false;
  const note = (arg: unknown, listing: boolean) => {
    if (busy || (typeof arg !== "string" && !(arg instanceof URL) && !Buffer.isBuffer(arg))) return;
    const p = path.resolve(arg instanceof URL ? decodeURIComponent(arg.pathname) : String(arg));
    const seen = r.inputs.get(p);
    if (seen && (!listing || seen[1] !== "dir")) return;
    busy = true;
    try {
      r.inputs.set(p, fingerprint(p, listing));
    } finally {
      busy = false;
    }
  };
  const wrap = (target: Record<string, unknown>, name: string) => {
    const original = target[name];
    if (typeof original !== "function") return;
    const listing = LISTING.has(name);
    const wrapped = function (this: unknown, ...args: unknown[]) {
      note(args[0], listing);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    target[name] = wrapped;
    r.restore.push(() => {
      if (target[name] === wrapped) target[name] = original;
    });
  };
  for (const name of SYNC) wrap(cjsFs, name);
  for (const name of CALLBACK) wrap(cjsFs, name);
  for (const name of PROMISES) wrap(cjsFs.promises, name);
  shared().stopRecording = stopRecording;
}

function stopRecording(): void {
  const r = recording().current;
  if (!r) return;
  for (const undo of r.restore) undo();
  r.restore = [];
}

/** What was consulted (the recording ended), or undefined when nothing recorded. */
export function consultedInputs(): Map<string, ReturnType<typeof fingerprint>> | undefined {
  stopRecording();
  return recording().current?.inputs;
}
