// One table of hostile text (window-title and clear-screen escapes, cursor
// moves, C1 controls, bidirectional overrides, zero-width tricks, NUL, BEL,
// backspace and carriage-return overwrites) pushed through every renderer:
// the real card renderer, the TUI's prompts and panels rendered by Ink, and
// the built yuj run headless on a scripted model, then asked for the stored
// session with `yuj status`, `yuj show`, `yuj sessions`, `yuj doctor` and
// `yuj tool` on a terminal. None of it may reach the output raw, and each
// must still be there to read (its label shows).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn as spawnPty } from "@lydell/node-pty";
import { cleanup, render } from "ink-testing-library";
import type { ReactElement } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CardDirectory } from "../../components/CardDirectory.js";
import { renderCard } from "../../components/cards/render.js";
import { JobsPanel } from "../../components/JobsPanel.js";
import { ApprovalPrompt } from "../../components/prompts/ApprovalPrompt.js";
import { QuestionPrompt } from "../../components/prompts/QuestionPrompt.js";
import { SessionPicker } from "../../components/SessionPicker.js";
import { SidePanel } from "../../components/SidePanel.js";
import { StatusBar } from "../../components/StatusBar.js";
import { TrustPrompt } from "../../components/TrustPrompt.js";
import { loadMarkdown } from "../../components/cards/markdown.js";
import type { EventOf } from "../../core/events.js";
import { initialView, type Card, type JobView } from "../../core/reducer.js";
import { isolatedEnv, runCli, yujBin, type CliResult } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";

/** Each entry starts with its label, which must be readable wherever the text is shown. */
const HOSTILE: Record<string, string> = {
  title: "title:\x1b]0;pwned\x07",
  clear: "clear:\x1b[2J\x1b[3J\x1b[H",
  cursor: "cursor:\x1b[5A\x1b[10C\x1b7\x1b8\x1bc",
  c1: "c1:\x9b31m\x9d0;x\x9c\x85",
  rlo: "rlo:\u202etxt.exe",
  isolates: "isolates:\u2066\u2067\u2068a\u2069\u200e\u200f\u061c\u202a\u202b\u202c\u202d",
  zerowidth: "zerowidth:r\u200dm -rf\u200b ~\u2060\ufeff\u200c\u00ad",
  nul: "nul:a\x00b",
  bel: "bel:\x07\x07",
  backspace: "backspace:safe\b\b\b\bevil",
  overwrite: "overwrite:rm -rf ~\rls -la      ",
  tags: "tags:\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}",
  entities: "entities:&#x202e;x&#27;[2J",
};
const CASES = Object.entries(HOSTILE);
const ALL = Object.values(HOSTILE).join(" | ");
/** The same for a command-line argument, which cannot hold NUL. */
const ARG = ALL.replace(/\x00/g, "");

// Raw: every C0 control but \n, DEL, C1, the bidirectional controls, the
// zero-width and format characters, and the tag plane. The renderers' own
// colour (SGR, ESC [ digits m) is removed first where a renderer paints.
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;
const OUR_COLOUR = /\x1b\[[0-9;]*m/g;

function expectInert(output: string, where: string, colour = false): void {
  const text = colour ? output.replace(OUR_COLOUR, "") : output;
  const hit = RAW.exec(text);
  expect(hit, `${where}: raw ${JSON.stringify(hit?.[0])} at …${JSON.stringify(text.slice(Math.max(0, (hit?.index ?? 0) - 30), (hit?.index ?? 0) + 10))}`).toBeNull();
}

function expectShown(output: string, where: string, label: string, colour = false): void {
  expectInert(output, where, colour);
  expect(output, `${where}: the text labelled ${label} is not shown`).toContain(`${label}:`);
}

// ---------------------------------------------------------------------------
// One layer: no renderer measures, strips or escapes terminal text itself.

describe("the text-safety layer is the only one", () => {
  it("only core/text imports string-width or strip-ansi, or matches control characters", () => {
    const own: string[] = [];
    for (const dir of ["app", "components", "core"]) {
      for (const entry of readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })) {
        const file = join(entry.parentPath, entry.name);
        if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || file.includes(`${join("core", "text")}`)) continue;
        const text = readFileSync(file, "utf8");
        if (/from "(string-width|strip-ansi)"|\\x00-\\x08|\\u202[ae]/.test(text)) own.push(file.slice(repoRoot.length + 1));
      }
    }
    expect(own).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// The TUI: the card renderer and every component that shows untrusted text.

const frameOf = (ui: ReactElement): string => {
  const r = render(ui);
  const f = r.lastFrame() ?? "";
  r.unmount();
  return f;
};

function cardsFor(h: string): Card[] {
  const tool = (num: number, name: string, args: Record<string, unknown>, viewText?: string): Extract<Card, { kind: "tool" }> => ({
    kind: "tool",
    num,
    callId: `c${num}`,
    name,
    argsText: JSON.stringify(args),
    status: "ok",
    ...(viewText === undefined ? {} : { viewText }),
  });
  return [
    { kind: "user", num: 1, text: h },
    { kind: "assistant", num: 2, text: `# ${h}\n\n- ${h}\n\n\`${h}\` **${h}** [${h}](http://x/${h})`, streaming: false },
    { kind: "assistant", num: 3, text: `${h}\n${h}`, streaming: true },
    { kind: "notice", num: 4, level: "warning", text: h },
    tool(5, "bash", { cmd: `echo ${h}\n${h}` }, `${h}\n${h}`),
    tool(6, "read", { path: h }, `1: ${h}`),
    tool(7, "grep", { pattern: h, path: h, glob: h }, h),
    tool(8, "edit", { path: h, old_str: h, new_str: `${h}!` }, "OK"),
    tool(9, "write", { path: h, content: h }, h),
    tool(10, "ask_user", { question: h, options: [h] }, h),
    tool(11, "write_todos", { todos: [{ description: h, status: "pending" }] }),
    tool(12, h, { [h]: h }, h),
    tool(14, "done", { message: h }),
    tool(15, "complete", { summary: h, files_changed: [h, { path: h, summary: h }], known_risks: h }),
    { ...tool(16, "escalate", { kind: h, reason: h }, h), status: "error" },
    { ...tool(17, "done", {}), argsText: `not json ${h}` },
  ];
}

function job(h: string): JobView {
  return { jobId: "j1", command: h, label: h, background: true, status: "running", startedAt: "2026-01-01T00:00:00.000Z", output: `${h}\n${h}`, totalBytes: 10 };
}

const tuiRenderers: Array<[string, (h: string) => string, boolean?]> = [
  ...[false, true].map((color): [string, (h: string) => string, boolean] => [
    `cards (colour ${color ? "on" : "off"})`,
    (h) => cardsFor(h).flatMap((c) => renderCard(c, { width: 120, folded: false, focused: true, cwd: "/repo", color })).join("\n"),
    color,
  ]),
  [
    "approval prompt",
    (h) => {
      const request: EventOf<"approval_requested"> = {
        seq: 1, ts: "2026-01-01T00:00:00.000Z", sessionId: "s", agentId: "main", type: "approval_requested",
        callId: "c1", tool: h, summary: h, detail: `${h}\n+${h}`, reason: h,
        rule: `{ tool = ${JSON.stringify(h)}, pattern = ${JSON.stringify(h)}, action = "allow" }`,
      };
      return frameOf(<ApprovalPrompt request={request} width={120} onAnswer={() => {}} />);
    },
  ],
  [
    "question prompt",
    (h) => {
      const question: EventOf<"question_asked"> = {
        seq: 1, ts: "2026-01-01T00:00:00.000Z", sessionId: "s", agentId: "main", type: "question_asked",
        callId: "q1", question: h, header: h, options: [{ label: h, description: h }],
      };
      return frameOf(<QuestionPrompt question={question} width={120} onAnswer={() => {}} />);
    },
  ],
  [
    "status bar",
    (h) =>
      frameOf(
        <StatusBar mode="NORMAL" profile={h} hint={h} request={{ state: "idle", bytesReceived: 0, retries: 0 }} now={0} runningJobs={1} cwd={`/p/${h}`} sessionId={h} width={200} />,
      ),
  ],
  [
    "side panel",
    (h) => {
      const view = { ...initialView(), model: h, provider: h, profile: h, todos: [{ description: h, status: "in_progress" as const, activeForm: h }], jobs: { j1: job(h) } };
      return frameOf(<SidePanel view={view} git={{ branch: h, files: [{ path: h, added: 1, removed: 2 }] }} width={120} height={40} now={0} />);
    },
  ],
  ["jobs panel", (h) => frameOf(<JobsPanel jobs={[job(h)]} now={0} width={120} height={20} onKill={() => {}} onClose={() => {}} />)],
  ["card directory", (h) => frameOf(<CardDirectory cards={cardsFor(h)} width={120} height={20} onPick={() => {}} onClose={() => {}} />)],
  [
    "session picker",
    (h) =>
      frameOf(
        <SessionPicker
          sessions={[{ id: h, status: "paused", updatedAt: "2026-01-01T00:00:00.000Z", title: h, cwd: `/elsewhere/${h}` }]}
          cwd="/here"
          width={200}
          height={12}
          refusal={{ id: h, text: h }}
          onPick={() => {}}
          onQuit={() => {}}
        />,
      ),
  ],
  ["trust prompt", (h) => frameOf(<TrustPrompt file={`/p/${h}/.yuj/config.toml`} changed={false} items={[{ key: h, value: h, why: h }]} width={200} height={20} onAnswer={() => {}} />)],
];

describe("every TUI renderer shows hostile text inert", () => {
  beforeAll(async () => {
    await loadMarkdown(); // the finished assistant card renders through Markdown, not plain text
  });
  afterEach(() => cleanup());

  for (const [name, show, colour] of tuiRenderers) {
    it.each(CASES)(`${name}: %s`, (label, h) => expectShown(show(h), name, label, colour === true));
  }
});

// ---------------------------------------------------------------------------
// Headless and the report commands: the built yuj on a scripted model whose
// words, tool arguments and tool results carry all of it, in a directory
// whose name carries some of it.

describe("headless runs and the commands that report a stored session show hostile text inert", () => {
  let cwd = "";
  let env: Record<string, string> = {};
  const cli = (args: string[]) => runCli(args, { cwd, env, timeoutMs: 60_000 });
  const check = (r: CliResult, where: string) => {
    expectInert(r.stdout, `${where} (stdout)`);
    expectInert(r.stderr, `${where} (stderr)`);
  };

  beforeAll(() => {
    const parent = mkdtempSync(join(tmpdir(), "yuj-hostile-"));
    cwd = join(parent, `proj-${HOSTILE.title}-${HOSTILE.rlo}`);
    mkdirSync(cwd);
    env = isolatedEnv();
    // A NUL would make read refuse the file as binary: it comes through the model's words instead.
    writeFileSync(join(cwd, "evil.txt"), `${Object.values(HOSTILE).filter((h) => !h.includes("\x00")).join("\n")}\n`);
    const turns = [
      { text: `${ALL}\n${ALL}`, tool_calls: [{ name: "read", arguments: { path: "evil.txt" } }, { name: "read", arguments: { path: `missing ${HOSTILE.clear}${HOSTILE.rlo}` } }] },
      { tool_calls: [{ name: "bash", arguments: { cmd: `rm -rf ./build # ${ALL}` } }] },
      { tool_calls: [{ name: "ask_user", arguments: { question: `${ALL}\n${HOSTILE.overwrite}` } }] },
      { tool_calls: [{ name: "done", arguments: { message: ALL } }] },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  });

  it("the transcript, the pause on an approval, and the reports of that session", async () => {
    const run = await cli(["code", `task ${ARG}`, "--config", "scripted.toml"]);
    expect(run.code, run.stderr).toBe(3);
    check(run, "yuj code");
    for (const label of Object.keys(HOSTILE)) expect(run.stdout, `yuj code shows ${label}`).toContain(`${label}:`);
    expect(run.stderr).toContain("approval required");
    expect(run.stdout).toContain("title:␛]0;pwned␇");
    expect(run.stderr).toContain("rlo:⟨U+202E⟩txt.exe");

    for (const args of [["status"], ["show"], ["sessions"], ["status", "--output", "json"], ["show", "--output", "json"], ["sessions", "--output", "json"]]) {
      const r = await cli(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      check(r, `yuj ${args.join(" ")}`);
      expect(r.stdout).toMatch(/title:/);
    }
    const json = JSON.parse((await cli(["status", "--output", "json"])).stdout) as { task: string; approval: { summary: string } };
    expect(json.task, "JSON keeps the exact text: it is escaped, not changed").toBe(`task ${ARG}`);
    expect(json.approval.summary).toContain(HOSTILE.rlo);

    const reject = await cli(["reject", "--message", `no ${ARG}`]);
    expect(reject.code, reject.stderr).toBe(0);
    check(reject, "yuj reject");
    expect(reject.stdout).toContain("Rejected");
  });

  it("the JSONL stream, the pause on a question, the answer and the finish", async () => {
    const resumed = await cli(["resume", "--output", "jsonl"]);
    expect(resumed.code, resumed.stderr).toBe(4);
    check(resumed, "yuj resume --output jsonl");
    const events = resumed.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; question?: string });
    expect(events.find((e) => e.type === "question_asked")?.question, "JSONL keeps the exact text").toBe(`${ALL}\n${HOSTILE.overwrite}`.trim());
    expect(resumed.stderr).toContain("the model asks");

    const status = await cli(["status"]);
    check(status, "yuj status (question)");
    expect(status.stdout).toContain("overwrite:rm -rf ~␍ls -la");

    const answered = await cli(["answer", `yes ${ARG}`]);
    expect(answered.code, answered.stderr).toBe(0);
    check(answered, "yuj answer");
    expect(answered.stdout).toContain("✓ done: title:␛]0;pwned␇");

    const show = await cli(["show"]);
    check(show, "yuj show (finished)");
    expect(show.stdout).toContain("recent activity");
  });

  it("doctor, whose lines echo the directory's paths", async () => {
    const r = await cli(["doctor", "--config", "scripted.toml"]);
    check(r, "yuj doctor");
    expect(r.stdout).toContain("proj-title:␛]0;pwned␇");
  });

  it("yuj tool on a terminal shows the result safe; piped, it gives the exact bytes", async () => {
    const piped = await cli(["tool", "read", JSON.stringify({ path: "evil.txt" })]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain(HOSTILE.title);

    const pty = spawnPty(process.execPath, [yujBin, "tool", "read", JSON.stringify({ path: "evil.txt" })], { cwd, env, cols: 200, rows: 50 });
    let out = "";
    pty.onData((d) => (out += d));
    const code = await new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    expect(code, out).toBe(0);
    // The terminal turns each \n into \r\n: that pair is the line end.
    expectShown(out.replace(/\r\n/g, "\n"), "yuj tool on a terminal", "title");
  });
});
