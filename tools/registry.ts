// Every handler shipped with yuj, keyed by id. Profiles refer to handlers by
// these ids; adding a tool means adding its handler to this list.

import type { ToolHandler } from "../core/tool-types.js";
import { applyPatchTool } from "./yuj/apply_patch.js";
import { askUserTool } from "./yuj/ask_user.js";
import { bashKillTool } from "./yuj/bash_kill.js";
import { bashPollTool } from "./yuj/bash_poll.js";
import { bashTool } from "./yuj/bash.js";
import { chordApplyPatchTool } from "./chord/apply_patch.js";
import { chordDeleteTool } from "./chord/delete.js";
import { chordEditTool } from "./chord/edit.js";
import { chordGlobTool } from "./chord/glob.js";
import { chordGrepTool } from "./chord/grep.js";
import { chordReadTool } from "./chord/read.js";
import { viewImageTool } from "./chord/view_image.js";
import { chordWriteTool } from "./chord/write.js";
import { doneTool } from "./yuj/done.js";
import { editTool } from "./yuj/edit.js";
import { exitPlanModeTool } from "./yuj/exit_plan_mode.js";
import { globTool } from "./yuj/glob.js";
import { grepTool } from "./yuj/grep.js";
import { jobKillTool } from "./chord/job_kill.js";
import { jobListTool } from "./chord/job_list.js";
import { jobOutputTool } from "./chord/job_output.js";
import { notebookEditTool } from "./yuj/notebook_edit.js";
import { readTool } from "./yuj/read.js";
import { shellTool } from "./chord/shell.js";
import { terminalIoTool } from "./yuj/terminal_io.js";
import { terminalStartTool } from "./yuj/terminal_start.js";
import { udiffTool } from "./yuj/udiff.js";
import { writeTool } from "./yuj/write.js";
import { checkpointTool } from "./yuj/checkpoint.js";
import { chordDoneTool } from "./chord/done.js";
import { questionTool } from "./chord/question.js";
import { readArtifactTool } from "./chord/read_artifact.js";
import { saveArtifactTool } from "./chord/save_artifact.js";
import { todoWriteTool } from "./chord/todo_write.js";
import { rewindTool } from "./yuj/rewind.js";
import { thinkTool } from "./yuj/think.js";
import { taskTool } from "./yuj/task.js";
import { writeTodosTool } from "./yuj/write_todos.js";
// Code intelligence (tree-sitter loads on first use)
import { listDefinitionsTool } from "./yuj/list_definitions.js";
import { structuralEditTool } from "./yuj/structural_edit.js";
import { structuralSearchTool } from "./yuj/structural_search.js";
// Code intelligence: language servers and test runs
import { lspTool } from "./yuj/lsp.js";
import { runTestsTool } from "./yuj/run_tests.js";
// The web (both surfaces)
import { webFetchTool } from "./lib/web_fetch.js";
import { skillTool } from "./chord/skill.js";

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
  applyPatchTool,
  udiffTool,
  notebookEditTool,
  globTool,
  grepTool,
  askUserTool,
  doneTool,
  exitPlanModeTool,
  writeTodosTool,
  thinkTool,
  taskTool,
  checkpointTool,
  rewindTool,
  // Code intelligence
  structuralSearchTool,
  structuralEditTool,
  listDefinitionsTool,
  // Code intelligence: language servers and test runs
  lspTool,
  runTestsTool,
  // The web
  webFetchTool,
  // Chord surface
  chordReadTool,
  chordWriteTool,
  chordEditTool,
  chordDeleteTool,
  chordGrepTool,
  chordGlobTool,
  shellTool,
  jobOutputTool,
  jobListTool,
  jobKillTool,
  chordApplyPatchTool,
  viewImageTool,
  todoWriteTool,
  questionTool,
  saveArtifactTool,
  readArtifactTool,
  chordDoneTool,
  skillTool,
];

export function builtinHandlers(): Map<string, ToolHandler> {
  return new Map(HANDLERS.map((h) => [h.id, h]));
}
