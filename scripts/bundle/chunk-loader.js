// Loads the bundle's chunks (their CommonJS form in dist/cjs/, written by
// scripts/bundle/cjs-chunks.mjs) as functions compiled by vm.Script, with the
// code V8 compiled for them kept on disk between runs: Node 20's ES module
// loader would parse and compile every chunk again at every start.
//
// The cache is one file per chunk under $XDG_STATE_HOME/yuj/code-cache/<build>,
// written when a run ends (so it holds the functions that run compiled, not
// only the top level), through a temporary file renamed into place. V8 rejects
// data made by another V8, with other flags or for a source of another length,
// but it does not check the data itself (a damaged one crashes it or, worse,
// runs), so each file starts with the CRC-32 of the rest. A file that cannot
// be read, fails its CRC or is rejected is compiled from the source and
// written again. Only the three most recently written builds' directories stay.
import { Script } from "node:vm";
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { homedir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const CHUNKS = new Set("__CHUNKS__");
const BUILD = "__BUILD__";
const KEPT_BUILDS = 3;
// The chunk's text starts on the wrapper's line, so its line numbers hold;
// strict, as the ES module it was.
const WRAPPER = '(function (exports, require, module, __yujMetaUrl, __yujImport) {"use strict";';

const dist = path.dirname(fileURLToPath(import.meta.url));
const nodeRequire = createRequire(import.meta.url);
const importExternal = (id) => import(id);
const loaded = new Map();
const unsaved = [];

// $XDG_STATE_HOME/yuj as core/paths.ts finds it (a relative value is ignored).
function cacheRoot(env = process.env) {
  const xdg = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : undefined;
  return path.join(xdg ?? path.join(env.HOME || homedir(), ".local", "state"), "yuj", "code-cache");
}
// zlib.crc32 came in Node 20.15; an older Node compiles every time.
const crc32 = zlib.crc32;
const root = cacheRoot();
const dir = path.join(root, BUILD);

function readCache(name) {
  if (!crc32) return undefined;
  let file;
  try {
    file = fs.readFileSync(path.join(dir, `${name}.v8`));
  } catch {
    return undefined;
  }
  const data = file.subarray(4);
  return file.length > 4 && file.readUInt32LE(0) === crc32(data) ? data : undefined;
}

function writeCache(name, data) {
  const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(crc32(data));
  fs.writeFileSync(tmp, Buffer.concat([head, data]));
  fs.renameSync(tmp, path.join(dir, `${name}.v8`));
}

function requireChunk(id) {
  const name = id.startsWith("./") ? id.slice(2) : "";
  if (!CHUNKS.has(name)) return nodeRequire(id);
  const done = loaded.get(name);
  if (done) return done.exports;
  const file = path.join(dist, "cjs", name);
  const cachedData = readCache(name);
  const script = new Script(`${WRAPPER}${fs.readFileSync(file, "utf8")}\n})`, { filename: file, cachedData });
  if (crc32 && (!cachedData || script.cachedDataRejected)) {
    if (unsaved.length === 0) process.once("exit", saveUnlessRefused);
    unsaved.push([name, script]);
  }
  const module = { exports: {} };
  loaded.set(name, module);
  script.runInThisContext()(module.exports, requireChunk, module, pathToFileURL(path.join(dist, name)).href, importExternal);
  return module.exports;
}

/** The exports of dist/<id>, a chunk of the bundle (the entry's import()). */
export function load(id) {
  return requireChunk(id);
}

// Two installs of yuj may share the state directory: the newest few builds'
// caches stay, older ones go.
function pruneOtherBuilds() {
  const builds = fs.readdirSync(root).map((name) => ({ name, mtime: fs.statSync(path.join(root, name)).mtimeMs }));
  builds.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of builds.slice(KEPT_BUILDS)) {
    if (name !== BUILD) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

// A run refused for bad input (exit 2: an unknown flag, a bad config key, a
// missing key) writes nothing anywhere, the cache included.
function saveUnlessRefused(code) {
  if (code !== 2) save();
}

// Best effort: a cache that cannot be written only means compiling next time.
function save() {
  try {
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, script] of unsaved) writeCache(name, script.createCachedData());
    pruneOtherBuilds();
  } catch {
    // Read-only or full: the next run compiles from the sources again.
  }
}
