// The core, the view and the app know tools only by what their handlers say
// (effects, touches, role, view), never by name: a tool's name written as a
// string literal in core/, components/ or app/ is a fact that belongs on its
// handler. This check finds every such literal (test files are exempt) so a
// new tool never has to be taught to ten places.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { builtinHandlers } from "../../tools/registry.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = ["core", "components", "app"];

/**
 * Tool names that are also words of another vocabulary, in the files that
 * speak that vocabulary: each entry says which one. Anywhere else the word
 * is a tool's name and fails the check.
 */
const ALLOWED: ReadonlyArray<{ words: string[]; files: string[]; reason: string }> = [
  { words: ["bash"], files: ["core/jobs/job-start.ts", "core/jobs/sandbox-supervisor.ts", "core/jobs/terminal.ts", "core/sandbox/index.ts"], reason: "the shell program commands run in" },
  { words: ["job_output"], files: ["core/event-schema.ts", "core/jobs/job-start.ts", "core/reducer.ts"], reason: "an event type of the published event schema" },
  { words: ["lsp"], files: ["core/lsp/manager.ts", "core/dispatch.ts"], reason: "the language servers' folder in the session, and the tool context's key for them" },
  { words: ["task"], files: ["app/session-report.ts"], reason: "the session's task, as state.json and `yuj status` name it" },
  { words: ["read", "grep"], files: ["app/permission-setup.ts"], reason: "the rules the session adds so its own saved output can be opened, by the exposed names rules use" },
  { words: ["question"], files: ["core/controller/operator.ts", "app/session-report.ts"], reason: "the session's pending question, as state.json and `yuj status` name it" },
  { words: ["think", "checkpoint", "rewind", "skill"], files: ["core/tool-types.ts", "core/context/shape.ts", "core/agents/runner.ts", "app/extensions.ts", "app/session.ts"], reason: "roles a handler declares (the loop asks the role, never the name)" },
  { words: ["read", "write", "edit", "delete"], files: ["core/tool-types.ts", "core/permissions/engine.ts", "core/permissions/gate.ts"], reason: "the rule families a handler declares" },
  { words: ["edit"], files: ["core/profiles/model-family.ts"], reason: "an edit dialect (exact replacement, against patches)" },
  { words: ["write", "delete"], files: ["core/display-schema.ts", "core/display-text.ts", "components/cards/display.ts"], reason: "a display kind (a new file) and a diff's operation" },
  { words: ["edit", "write", "apply_patch", "udiff"], files: ["core/config/schema.ts"], reason: "values of the config's edit_format and post-edit trigger settings" },
  {
    words: ["done"],
    files: ["core/event-schema.ts", "core/loop.ts", "core/agents/runner.ts", "core/session-record.ts", "core/session-state.ts", "app/next-action.ts", "app/render-text.ts", "app/resume-plan.ts", "app/measure/checkpoint.ts", "core/checkpoints/prune.ts", "core/controller/loop-mode.ts"],
    reason: "a run's finish reason and a session's status (the events schema, state.json, `yuj status`)",
  },
  { words: ["cancel"], files: ["core/ops.ts", "core/session-controller.ts", "components/app-keys.ts", "components/keys.ts"], reason: "the operator's cancel operation and the key that sends it" },
  { words: ["task"], files: ["app/args.ts", "app/measure/run-session.ts", "app/measure/summary.ts"], reason: "a measured task: yuj measure's --task, a new session's task, the summary's column" },
  { words: ["rewind"], files: ["app/measure/savings.ts"], reason: "the name of a context mechanism in a savings row" },
  {
    words: ["checkpoint", "rewind"],
    files: [
      "core/checkpoints/store.ts", "core/checkpoints/recorder.ts", "core/checkpoints/rewind.ts", "core/checkpoints/plan-text.ts",
      "app/args.ts", "app/main.ts", "app/tui/actions.ts", "components/App.tsx", "components/front-commands.ts", "components/slash.ts", "components/ui-state.ts",
    ],
    reason: "the operator's workspace checkpoints and rewind (yuj rewind, /rewind and its panel, the checkpoint log), not the model's tools",
  },
  { words: ["delete"], files: ["core/checkpoints/git-tree.ts"], reason: "a command of git update-ref --stdin" },
  {
    words: ["web_search"],
    files: ["core/config/schema.ts", "core/providers/anthropic.ts", "core/providers/hosted.ts", "core/providers/wire-history.ts", "core/turn-stream.ts"],
    reason: "the provider's hosted search as its wire format names it (the declaration, its blocks and items), the config value that turns it on, and the card of a search the provider ran inside the model's own request",
  },
  { words: ["glob"], files: ["core/arg-aliases.ts"], reason: "an old parameter name models still send (read as includes)" },
  { words: ["done"], files: ["core/reducer-agents.ts", "components/cards/render.ts"], reason: "an agent's state as the view names it (a settled task), and a run's finish reason" },
  { words: ["done"], files: ["core/shell/inline-code.ts", "core/shell/parser.ts", "core/shell/runners.ts"], reason: "the shell's keyword that ends a loop" },
];

const allowed = (word: string, file: string): boolean => ALLOWED.some((a) => a.words.includes(word) && a.files.includes(file));

/** Every exposed name in every profile, and every handler id. */
function toolNames(): Set<string> {
  const names = new Set<string>();
  const profiles = join(ROOT, "profiles");
  for (const dir of readdirSync(profiles)) {
    let text: string;
    try {
      text = readFileSync(join(profiles, dir, "tool_schemas.toml"), "utf8");
    } catch {
      continue;
    }
    const tools = (parse(text) as { tools?: Record<string, unknown> }).tools ?? {};
    for (const name of Object.keys(tools)) names.add(name);
  }
  for (const id of builtinHandlers().keys()) names.add(id);
  return names;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

interface Hit {
  file: string;
  line: number;
  literal: string;
}

/** String literals (and template pieces) whose whole text is a tool name. */
function literalsNaming(file: string, names: ReadonlySet<string>): Hit[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const hits: Hit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const value = (node as ts.LiteralLikeNode).text.trim();
      const shown = relative(ROOT, file);
      if (names.has(value) && !allowed(value, shown)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        hits.push({ file: shown, line: line + 1, literal: value });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

describe("no tool name as a string literal outside tools/", () => {
  const names = toolNames();

  it("knows the tools of both surfaces", () => {
    // A broken name list would make the check below pass vacuously.
    for (const n of ["bash", "read", "apply_patch", "shell", "lsp", "run_tests", "chord_read"]) expect(names.has(n)).toBe(true);
  });

  it("finds none in core/, components/ or app/", () => {
    const hits = SCANNED.flatMap((d) => sourceFiles(join(ROOT, d))).flatMap((f) => literalsNaming(f, names));
    expect(hits.map((h) => `${h.file}:${h.line} "${h.literal}"`)).toEqual([]);
  });

  it("would catch one", () => {
    const hits = literalsNaming(join(import.meta.dirname, "fixtures", "names-a-tool.ts.txt"), names);
    expect(hits.map((h) => h.literal)).toEqual(["structural_edit", "job_output"]);
  });
});
