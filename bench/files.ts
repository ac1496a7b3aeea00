// File-tool benchmarks (issue 6): content search over a large tree, and one
// small change to a 5 MB file, each through the tool handlers themselves.
//
// grep — the tree is this checkout's node_modules; the baseline is the
// bundled ripgrep (@vscode/ripgrep's rgPath) spawned directly by node with
// Yuj grep's own argv (`--no-config -n --no-heading --with-filename`, same
// pattern, same root, rg's default ignore/hidden/binary filters, cwd = the
// repository), its whole stdout read into memory. What is compared is the
// whole call: Yuj grep answers with only the first page (25 lines) but must
// read every match first, because the envelope states the total and lines are
// sorted by (path, line) — so rg printing every match is the work it
// replaces. Chord grep answers with at most 120 matches / 12 KiB, against the
// same rg baseline. Each handler gets the arguments the dispatcher would
// give it (parsed by its schema) and a real ToolContext. Runs of the three
// are interleaved so a burst of load elsewhere hits all of them alike.
//
// `yuj tool grep` end to end (a fresh node process: config, session, the
// dispatcher) is reported beside it; it includes node's own start-up, which
// the tool cannot beat, so it is informational, shown beside the rg figure.
//
// edit/patch — a fresh 5 MB TypeScript-like file for every run (written
// before the clock starts), one change near its end, timed from the handler
// call to its result, including the atomic write (temp file, fsync, rename,
// directory fsync).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext, ToolHandler } from "../core/tool-types.js";
import { makeToolContext } from "../test/support/tool-context.js";
import { applyPatchTool } from "../tools/yuj/apply_patch.js";
import { chordEditTool } from "../tools/chord/edit.js";
import { chordGrepTool } from "../tools/chord/grep.js";
import { chordApplyPatchTool } from "../tools/chord/apply_patch.js";
import { editTool } from "../tools/yuj/edit.js";
import { grepTool } from "../tools/yuj/grep.js";
import { grepFallback } from "../tools/lib/grep/fallback.js";
import { udiffTool } from "../tools/yuj/udiff.js";

type Row = [string, string, string];

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "yuj.js");
const TREE = "node_modules";
const GREP_TARGET = 1.3;
const EDIT_TARGET_MS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Spawn → exit of a process, stdout read into memory as a tool would. */
function spawnTimed(cmd: string, argv: string[], env?: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: root, env, stdio: ["ignore", "pipe", "ignore"] });
    const out: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t0, code, stdout: Buffer.concat(out).toString("utf8") }));
  });
}

// Any handler: its args are parsed by its own schema, as the dispatcher does.
async function call(tool: ToolHandler<any>, args: unknown, ctx: ToolContext): Promise<string> {
  const res = await tool.run(tool.schema.parse(args), ctx);
  if (!res.ok) throw new Error(`${tool.id} failed: ${JSON.stringify(res).slice(0, 300)}`);
  return JSON.stringify(res);
}

const PATTERNS: Array<{ label: string; pattern: string }> = [
  { label: "rare literal", pattern: "zq_never_in_any_package_zq" },
  { label: "common word", pattern: "function" },
  { label: "regex", pattern: String.raw`import\s+\w+\s+from\s+['"]` },
];

async function benchGrep(runs: number): Promise<Row[]> {
  const { rgPath } = await import("@vscode/ripgrep");
  const support = await makeToolContext();
  const ctx: ToolContext = { ...support.ctx, cwd: root };
  const home = mkdtempSync(join(tmpdir(), "yuj-bench-files-home-"));
  // A private HOME/state so `yuj tool` sessions land in a scratch directory.
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_STATE_HOME: join(home, "state"), XDG_CONFIG_HOME: join(home, "cfg") };
  const rows: Row[] = [];
  try {
    for (const { label, pattern } of PATTERNS) {
      const rgArgv = ["--no-config", "-n", "--no-heading", "--with-filename", "--color", "never", "-e", pattern, "--", join(root, TREE)];
      const rg: number[] = [];
      const yuj: number[] = [];
      const chord: number[] = [];
      let lines = 0;
      // One untimed round warms the page cache and the lazily loaded modules.
      await call(grepTool, { pattern, path: TREE }, ctx);
      await call(chordGrepTool, { pattern, paths: TREE }, ctx);
      for (let i = 0; i < runs; i++) {
        const r = await spawnTimed(rgPath, rgArgv);
        if (r.code !== 0 && r.code !== 1) throw new Error(`rg exited ${r.code}`);
        lines = r.stdout ? r.stdout.split("\n").length - 1 : 0;
        rg.push(r.ms);
        yuj.push(await time(() => call(grepTool, { pattern, path: TREE }, ctx)));
        chord.push(await time(() => call(chordGrepTool, { pattern, paths: TREE }, ctx)));
      }
      const base = median(rg);
      const verdict = (x: number) => `${ms(x)} (${(x / base).toFixed(2)}× rg)${x / base > GREP_TARGET ? " — **missed**" : ""}`;
      const target = `≤ ${GREP_TARGET}× rg (rg: ${ms(base)}, ${lines} lines)`;
      rows.push([`grep ${TREE}, ${label} \`${pattern}\`: Yuj grep handler`, verdict(median(yuj)), target]);
      rows.push([`the same: Chord grep handler`, verdict(median(chord)), target]);

      // End to end: a whole `yuj tool grep` process against rg spawned alone.
      const e2eRuns = Math.max(3, Math.ceil(runs / 2));
      const e2e: number[] = [];
      const e2eChord: number[] = [];
      const yujTool = async (argv: string[]) => {
        const r = await spawnTimed(process.execPath, [bin, ...argv], env);
        if (r.code !== 0) throw new Error(`yuj ${argv.join(" ")} exited ${r.code}: ${r.stdout.slice(0, 300)}`);
        return r.ms;
      };
      for (let i = 0; i < e2eRuns; i++) {
        e2e.push(await yujTool(["tool", "grep", JSON.stringify({ pattern, path: TREE })]));
        e2eChord.push(await yujTool(["--profile", "chord", "tool", "grep", JSON.stringify({ pattern, paths: TREE })]));
      }
      rows.push([`the same: \`yuj tool grep\` end to end (Yuj / Chord profile)`, `${ms(median(e2e))} / ${ms(median(e2eChord))}`, `informational (node start-up included; rg: ${ms(base)})`]);
    }

    // The pure-JS walk used when no rg binary exists; informational only.
    const fallback: number[] = [];
    for (let i = 0; i < 3; i++) {
      fallback.push(
        await time(async () => {
          const res = await grepFallback({ fs: ctx.services.fs, pattern: PATTERNS[1]!.pattern, scopeAbs: join(root, TREE), cwdReal: root, signal: ctx.signal });
          if (!res.ok) throw new Error(res.error);
        }),
      );
    }
    rows.push([`grep ${TREE}, \`${PATTERNS[1]!.pattern}\`: JS fallback (no rg)`, ms(median(fallback)), "informational"]);
  } finally {
    await support.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

/** About `bytes` of TypeScript-like source: numbered functions, so every line near the end is unique. */
function sourceFile(bytes: number): { text: string; last: number } {
  const parts: string[] = ["// generated for the file-tool benchmark\n"];
  let size = parts[0]!.length;
  let n = 0;
  while (size < bytes) {
    const chunk =
      `export function compute${n}(input: number[], scale = ${n % 97}): number {\n` +
      `  let total = 0;\n` +
      `  for (const value of input) total += value * scale + ${n};\n` +
      `  return total; // step ${n}\n` +
      `}\n\n`;
    parts.push(chunk);
    size += chunk.length;
    n++;
  }
  return { text: parts.join(""), last: n - 1 };
}

async function benchEdits(runs: number): Promise<Row[]> {
  const support = await makeToolContext();
  const { ctx, cwd } = support;
  const { text, last } = sourceFile(5 * 1024 * 1024);
  const k = last - 3; // a function near the end
  const oldLine = `  return total; // step ${k}`;
  const newLine = `  return total * 2; // step ${k}`;
  const startLine = text.slice(0, text.indexOf(oldLine)).split("\n").length; // 1-based line of oldLine
  const v4a = (file: string) =>
    [
      "*** Begin Patch",
      `*** Update File: ${file}`,
      `@@ export function compute${k}(input: number[], scale = ${k % 97}): number {`,
      `   let total = 0;`,
      `   for (const value of input) total += value * scale + ${k};`,
      `-${oldLine}`,
      `+${newLine}`,
      " }",
      "*** End Patch",
    ].join("\n");
  const udiff = (file: string) =>
    [
      `--- a/${file}`,
      `+++ b/${file}`,
      `@@ -${startLine - 2},4 +${startLine - 2},4 @@`,
      `   let total = 0;`,
      `   for (const value of input) total += value * scale + ${k};`,
      `-${oldLine}`,
      `+${newLine}`,
      " }",
    ].join("\n");
  const cases: Array<{ label: string; tool: ToolHandler<any>; args: (file: string) => unknown }> = [
    { label: "`edit` (unique string near the end)", tool: editTool, args: (f) => ({ path: f, old_str: oldLine, new_str: newLine }) },
    { label: "`apply_patch` (V4A, one hunk)", tool: applyPatchTool, args: (f) => ({ patch: v4a(f) }) },
    { label: "`udiff` (one hunk)", tool: udiffTool, args: (f) => ({ patch: udiff(f) }) },
    { label: "Chord `edit`", tool: chordEditTool, args: (f) => ({ path: f, old_string: oldLine, new_string: newLine }) },
    { label: "Chord `apply_patch` (V4A, one hunk)", tool: chordApplyPatchTool, args: (f) => ({ patch: v4a(f) }) },
  ];
  const rows: Row[] = [];
  try {
    for (const c of cases) {
      const times: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const file = `big-${i}.ts`;
        writeFileSync(join(cwd, file), text);
        const t = await time(() => call(c.tool, c.args(file), ctx));
        if (!readFileSync(join(cwd, file), "utf8").includes(newLine)) throw new Error(`${c.tool.id} did not change ${file}`);
        rmSync(join(cwd, file));
        if (i > 0) times.push(t); // the first run only warms up
      }
      const m = median(times);
      rows.push([`5 MB file: ${c.label}`, `${ms(m)}${m > EDIT_TARGET_MS ? " — **missed**" : ""}`, `${EDIT_TARGET_MS} ms`]);
    }
  } finally {
    await support.cleanup();
  }
  return rows;
}

export async function benchFiles(runs = Number(process.env.BENCH_FILES_RUNS ?? 9)): Promise<Row[]> {
  return [...(await benchGrep(runs)), ...(await benchEdits(runs))];
}
