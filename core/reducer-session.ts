// The parts of the view that describe the session rather than its
// conversation: YOLO, the main role, loop mode, its name, the permission rules
// last listed, its skills (each marked once loaded), and the counts /stats
// reports. Pure, like the reducer that calls it.

import type { EventOf } from "./events.js";

export interface ListedRule {
  scope: "session" | "project";
  tool: string;
  pattern?: string;
  action: "allow" | "ask" | "deny";
}

/** Loop mode while it is on; `report` is done's report waiting for the user. */
export interface LoopFacts {
  target?: string;
  iteration: number;
  maxIterations: number;
  report?: string;
}

export interface SessionFacts {
  yolo: boolean;
  loop?: LoopFacts;
  name?: string;
  /** The main agent's role, once one was switched to (Chord surface). */
  mainRole?: string;
  /** The rules as the last rules_listed event gave them (for /rules). */
  rules?: { list: ListedRule[]; projectFile: string };
  /** Model requests sent (retries included). */
  requests: number;
  /** When the session started in this process (its first event), for the wall time. */
  startedAt?: string;
  /** The skills found, in order; `loaded` once a load of its instructions succeeded. */
  skills?: Array<{ name: string; loaded: boolean }>;
}

export const initialFacts: SessionFacts = { yolo: false, requests: 0 };

type FactEvent = EventOf<"yolo_changed"> | EventOf<"main_role_changed"> | EventOf<"session_renamed"> | EventOf<"rules_listed"> | EventOf<"skills_found"> | EventOf<"skill_loaded"> | EventOf<"loop_changed">;

export function reduceFacts(f: SessionFacts, event: FactEvent): SessionFacts {
  switch (event.type) {
    case "yolo_changed":
      return { ...f, yolo: event.on };
    case "main_role_changed":
      return { ...f, mainRole: event.role };
    case "session_renamed":
      return { ...f, name: event.name };
    case "rules_listed":
      return { ...f, rules: { list: event.rules.map((r) => ({ ...r })), projectFile: event.projectFile } };
    case "skills_found":
      return { ...f, skills: event.skills.map((sk) => ({ name: sk.name, loaded: f.skills?.some((k) => k.name === sk.name && k.loaded) ?? false })) };
    case "skill_loaded": {
      const known = f.skills ?? [];
      const skills = known.some((k) => k.name === event.name) ? known.map((k) => (k.name === event.name ? { ...k, loaded: true } : k)) : [...known, { name: event.name, loaded: true }];
      return { ...f, skills };
    }
    case "loop_changed": {
      if (!event.on) {
        const { loop: _ended, ...rest } = f;
        return rest;
      }
      const { target, iteration, maxIterations, report } = event;
      return { ...f, loop: { iteration, maxIterations, ...(target ? { target } : {}), ...(report !== undefined ? { report } : {}) } };
    }
  }
}

/** The notice a change of YOLO or of the main role leaves in the transcript. */
export function factNotice(event: EventOf<"yolo_changed"> | EventOf<"main_role_changed">): string {
  if (event.type === "yolo_changed") return event.on ? "YOLO on: ordinary approvals are skipped; the protected tools still ask." : "YOLO off: calls ask again as the rules say.";
  if (event.by === "plan") return `Handoff: the plan ${event.planPath ?? ""} goes to the ${event.role}; the main role is now ${event.role}.`;
  return `Main role: ${event.role} (Tab switches it).`;
}

/** What the transcript says when loop mode changes; undefined: nothing worth a line. */
export function loopNotice(before: LoopFacts | undefined, event: EventOf<"loop_changed">): string | undefined {
  const of = `${event.iteration} of ${event.maxIterations}`;
  if (!event.on) {
    if (event.ended === "confirmed") return `Loop finished: the report was confirmed (iteration ${of}).`;
    if (event.ended === "limit") return undefined;
    return "Loop off: runs end as usual again.";
  }
  if (!before) return `Loop on${event.target ? ` towards: ${event.target}` : ""}: each run the model ends goes on, up to ${event.maxIterations} iterations, until it calls done and you confirm its report.`;
  if (event.report !== undefined) return `The model asks to leave the loop (iteration ${of}): confirm its report, or send it back.`;
  if (event.iteration > before.iteration && event.iteration > 1) return `↻ Loop iteration ${of}.`;
  return undefined;
}
