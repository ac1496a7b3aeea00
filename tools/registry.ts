// Every handler shipped with yuj, keyed by id. Profiles refer to handlers by
// these ids; adding a tool means adding its handler to this list.

import type { ToolHandler } from "../core/tool-types.js";
import { askUserTool } from "./ask_user.js";
import { bashKillTool } from "./bash_kill.js";
import { bashPollTool } from "./bash_poll.js";
import { bashTool } from "./bash.js";
import { doneTool } from "./done.js";
import { editTool } from "./edit.js";
import { exitPlanModeTool } from "./exit_plan_mode.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { jobKillTool } from "./job_kill.js";
import { jobListTool } from "./job_list.js";
import { jobOutputTool } from "./job_output.js";
import { readTool } from "./read.js";
import { shellTool } from "./shell.js";
import { terminalIoTool } from "./terminal_io.js";
import { terminalStartTool } from "./terminal_start.js";
import { writeTool } from "./write.js";

const HANDLERS: readonly ToolHandler[] = [
  // Yuj surface
  bashTool,
  bashPollTool,
  bashKillTool,
  terminalStartTool,
  terminalIoTool,
  readTool,
  writeTool,
  editTool,
  globTool,
  grepTool,
  askUserTool,
  doneTool,
  exitPlanModeTool,
  // Chord surface
  shellTool,
  jobOutputTool,
  jobListTool,
  jobKillTool,
];

export function builtinHandlers(): Map<string, ToolHandler> {
  return new Map(HANDLERS.map((h) => [h.id, h]));
}
