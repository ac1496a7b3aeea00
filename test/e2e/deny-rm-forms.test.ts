// One deny rule on `rm *`, and every way of running rm we know of, for real:
// a headless run of the built yuj whose scripted model calls each form in
// turn, each aimed at its own file, through the real dispatcher, the real
// sandboxed shell, on both surfaces (Yuj `bash`, Chord `shell`), with and
// without --yolo. No file may go. A control run without the rule first
// shows that every form does delete its file.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { formFor, RM_FORMS, STAND_INS } from "../permissions/rm-forms.js";

type Surface = "yuj" | "chord";

const victim = (i: number) => `victim-${String(i).padStart(3, "0")}`;

function project(surface: Surface, denyRule: boolean) {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-rm-forms-"));
  // Inside the project: the sandbox gives each command its own empty /tmp.
  const shims = join(cwd, "stand-ins");
  mkdirSync(shims);
  for (const [name, text] of Object.entries(STAND_INS)) {
    writeFileSync(join(shims, name), text);
    chmodSync(join(shims, name), 0o755);
  }
  const tool = surface === "chord" ? "shell" : "bash";
  const key = surface === "chord" ? "command" : "cmd";
  const turns: unknown[] = RM_FORMS.map((form, i) => {
    writeFileSync(join(cwd, victim(i)), `file ${i}\n`);
    return { tool_calls: [{ id: `form_${i}`, name: tool, arguments: { [key]: formFor(form, victim(i)) } }] };
  });
  turns.push({ text: "tried them all" });
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  const rule = denyRule ? `[[permissions.rules]]\ntool = "${tool}"\npattern = "rm *"\naction = "deny"\n` : "";
  writeFileSync(join(cwd, "rules.toml"), rule);
  const env = isolatedEnv({ PATH: `${shims}:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin` });
  return { cwd, env };
}

interface ToolResult {
  type: string;
  callId: string;
  ok: boolean;
  modelText: string;
}

async function runForms(surface: Surface, opts: { yolo: boolean; deny: boolean }) {
  const { cwd, env } = project(surface, opts.deny);
  const args = ["code", "delete the files", "--config", "scripted.toml", "--config", "rules.toml", "--output", "jsonl", "--max-turns", "1000"];
  if (surface === "chord") args.push("--profile", "chord");
  if (opts.yolo) args.push("--yolo");
  const res = await runCli(args, { cwd, env, timeoutMs: 240_000 });
  const events = res.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as ToolResult);
  const results = new Map(events.filter((e) => e.type === "tool_result").map((e) => [e.callId, e]));
  const kept = RM_FORMS.map((form, i) => ({ form, kept: existsSync(join(cwd, victim(i))), result: results.get(`form_${i}`) }));
  return { res, kept };
}

describe("a deny rule on `rm *` stops every way of running rm", () => {
  it.each<[Surface]>([["yuj"], ["chord"]])("control, %s surface: without the rule every form deletes its file", async (surface) => {
    const { res, kept } = await runForms(surface, { yolo: true, deny: false });
    expect(res.code, res.stderr).toBe(0);
    expect(kept.filter((k) => k.kept).map((k) => `${k.form} → ${k.result?.modelText.slice(0, 200)}`)).toEqual([]);
  }, 300_000);

  it.each<[Surface, boolean]>([
    ["yuj", false],
    ["yuj", true],
    ["chord", false],
    ["chord", true],
  ])("%s surface, yolo %s: no form deletes its file, each is refused by the rule", async (surface, yolo) => {
    const { res, kept } = await runForms(surface, { yolo, deny: true });
    expect(res.code, res.stderr).toBe(0);
    expect(kept.filter((k) => !k.kept).map((k) => k.form)).toEqual([]);
    const notRefused = kept.filter((k) => !k.result || !/^ERROR: permission denied: denied by rule \{tool="(bash|shell)", pattern="rm \*", action="deny"\}/.test(k.result.modelText));
    expect(notRefused.map((k) => `${k.form} → ${k.result?.modelText.slice(0, 200)}`)).toEqual([]);
  }, 300_000);
});
