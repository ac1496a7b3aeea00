// The main agent's role on the Chord surface. `builder` (the default: the
// profile as it is) carries work out; `planner` reads and writes a plan; an
// agent file with mode = "main" adds a role of its own. The operator cycles
// the role (Tab, or the set_main_role operation); a planner hands its plan to
// the builder with handoff, which switches the role for the rest of the run.
// The role is kept in the session's state, so a resume keeps it. A
// read-only role (the planner, or a main agent file left read_only) may
// change only plan files: its other file changes are refused before they run.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { AgentFileError } from "../agents/definition.js";
import { findAgent, type AgentDirs } from "../agents/find.js";
import type { Emit } from "../events.js";
import { CHANGES, type Guard } from "../guards/types.js";
import { homeDir } from "../paths.js";
import { fail, ok, type ToolResult } from "../tool-types.js";

/** Where plans are written, relative to the project (not under .yuj/: file tools never write the project's config folder). */
const PLANS_DIR = "plans";

/** The role handoff gives the plan to. */
const BUILDER = "builder";

/** A plan larger than this is not a plan the builder's context should carry whole. */
const MAX_PLAN_BYTES = 256 * 1024;

interface MainRole {
  name: string;
  /** What the model is told when it takes the role. */
  instruction: string;
  /** Changes only plan files. */
  readOnly: boolean;
}

const BUILT_IN: readonly MainRole[] = [
  { name: BUILDER, readOnly: false, instruction: "You are in the builder role: carry the work out, changing the files it needs and checking them." },
  {
    name: "planner",
    readOnly: true,
    instruction:
      `You are in the planner role: read and search the project, then write a plan (the steps in order, the files each step changes, how to check each) ` +
      `as a Markdown file under ${PLANS_DIR}/, e.g. ${PLANS_DIR}/plan-001.md. Change no other file. ` +
      `When the plan is ready, call handoff with its path: the builder role takes over and carries it out.`,
  },
];

interface MainRoleSwitch {
  role: string;
  by: "operator" | "plan";
  planPath?: string;
}

export interface MainRoles {
  current(): string;
  /** The roles in cycling order: builder, planner, then the main agent files by name. */
  names(): string[];
  /** Switches to `role`, or to the next one when absent; a problem names the roles. */
  switchTo(role: string | undefined): { role: string } | { problem: string };
  /** handoff(plan_path): the plan goes to the builder, which takes over in the same run. */
  handoff(planPath: string, cwd: string): ToolResult;
  /** The note the next request carries after the operator switched the role (once). */
  takeNote(): string | undefined;
  /** Refuses a read-only role's changes outside the plans folder. */
  readonly guard: Guard;
}

export interface MainRolesSetup {
  agentDirs: AgentDirs;
  cwd: string;
  /** The role the session was left in (absent: builder). */
  initial?: string;
  /** Keeps the role in the session's state, before the event reports it. */
  save(role: string): void;
  emit: Emit;
}

export function createMainRoles(setup: MainRolesSetup): MainRoles {
  const all = () => [...BUILT_IN, ...mainAgentRoles(setup.agentDirs)];
  const find = (name: string) => all().find((r) => r.name === name);
  let current = setup.initial !== undefined && find(setup.initial) ? setup.initial : BUILDER;
  let note: string | undefined;

  const change = (s: MainRoleSwitch) => {
    current = s.role;
    setup.save(s.role);
    setup.emit({ type: "main_role_changed", role: s.role, by: s.by, ...(s.planPath !== undefined ? { planPath: s.planPath } : {}) });
  };

  return {
    current: () => current,
    names: () => all().map((r) => r.name),
    switchTo(role) {
      const names = all().map((r) => r.name);
      const target = role ?? names[(names.indexOf(current) + 1) % names.length]!;
      const found = find(target);
      if (!found) return { problem: `no main role "${target}"; the roles are ${names.join(", ")}` };
      if (target === current) return { role: target };
      change({ role: target, by: "operator" });
      note = `The operator switched the main role to ${target}. ${found.instruction}`;
      return { role: target };
    },
    handoff(planPath, cwd) {
      if (current === BUILDER) {
        return fail(`handoff refused: you are already the ${BUILDER}; carry the plan out yourself (read ${planPath})`);
      }
      const plan = readPlan(planPath, cwd);
      if ("error" in plan) return fail(`handoff refused: ${plan.error}`);
      const from = current;
      change({ role: BUILDER, by: "plan", planPath: plan.rel });
      note = undefined;
      const builder = find(BUILDER)!;
      return ok(
        `Handed off: the ${from}'s plan ${plan.rel} goes to the ${BUILDER}, and the main role is now ${BUILDER}. ${builder.instruction}\n` +
          `Carry out this plan now:\n\n${plan.text}`,
        { kind: "text", text: `${from} → ${BUILDER}: ${plan.rel} (${plan.text.length} chars)` },
      );
    },
    takeNote() {
      const n = note;
      note = undefined;
      return n;
    },
    guard: {
      name: "main role",
      // The role is the main agent's: a worker keeps its own role's tools.
      topLevelOnly: true,
      before(call) {
        const role = find(current);
        if (!role?.readOnly) return undefined;
        const outside = call.touches.filter((t) => CHANGES.has(t.as) && !insidePlans(t.path, setup.cwd)).map((t) => t.path);
        if (outside.length === 0) return undefined;
        return (
          `ERROR: the ${current} role changes only plan files under ${PLANS_DIR}/; ${call.tool} would change ${outside.join(", ")}. ` +
          `Write the plan under ${PLANS_DIR}/ and call handoff with its path, or ask the operator to switch the role.`
        );
      },
    },
  };
}

function insidePlans(path: string, cwd: string): boolean {
  const rel = relative(join(cwd, PLANS_DIR), resolve(cwd, path));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** The plan file: inside the project, a regular non-empty text file of bounded size. */
function readPlan(planPath: string, cwd: string): { rel: string; text: string } | { error: string } {
  // `~` is the user's home, as in the reference's plan_path; the plan must still be inside the project.
  const expanded = planPath === "~" || planPath.startsWith("~/") ? join(homeDir(), planPath.slice(1)) : planPath;
  const abs = resolve(cwd, expanded);
  const rel = relative(cwd, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return { error: `plan_path ${planPath} is outside the project (${cwd}); write the plan under ${PLANS_DIR}/` };
  const shown = rel.split(sep).join("/");
  // The missing-file and directory refusals open in Chord's words, then say where a plan goes.
  if (!existsSync(abs)) return { error: `plan file ${shown} not found; write the plan before calling handoff (e.g. ${PLANS_DIR}/plan-001.md)` };
  const st = statSync(abs);
  if (st.isDirectory()) return { error: `plan_path ${shown} is a directory; expected a file` };
  if (!st.isFile()) return { error: `plan_path ${shown} is not a file` };
  if (st.size > MAX_PLAN_BYTES) return { error: `plan_path ${shown} is ${st.size} bytes; a plan may be at most ${MAX_PLAN_BYTES} (256 KiB): shorten it` };
  const text = readFileSync(abs, "utf8");
  if (text.trim() === "") return { error: `plan_path ${shown} is empty; write the plan into it first` };
  return { rel: shown, text };
}

/** Agent files with mode = "main", by name; an unreadable one is left out. */
function mainAgentRoles(dirs: AgentDirs): MainRole[] {
  const names = new Set<string>();
  for (const dir of [dirs.project, dirs.user, dirs.builtin]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const m = /^([a-z0-9][a-z0-9_-]*)\.(toml|md)$/.exec(file);
      if (m && !BUILT_IN.some((r) => r.name === m[1])) names.add(m[1]!);
    }
  }
  const roles: MainRole[] = [];
  for (const name of [...names].sort()) {
    try {
      const def = findAgent(name, dirs);
      if (def.mode !== "main") continue;
      const prompt = def.systemPrompt ?? def.description;
      roles.push({ name, readOnly: def.readOnly, instruction: `You are in the ${name} role. ${prompt}` });
    } catch (err) {
      if (!(err instanceof AgentFileError)) throw err;
    }
  }
  return roles;
}
