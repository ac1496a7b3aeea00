// Every handler shipped with yuj, keyed by id. Profiles refer to handlers by
// these ids; adding a tool means adding its handler to this list.

import type { ToolHandler } from "../core/tool-types.js";
import { applyPatchTool } from "./apply_patch.js";
import { askUserTool } from "./ask_user.js";
import { bashKillTool } from "./bash_kill.js";
import { bashPollTool } from "./bash_poll.js";
import { bashTool } from "./bash.js";
import { chordApplyPatchTool } from "./chord_apply_patch.js";
import { chordDeleteTool } from "./chord/delete.js";
import { chordEditTool } from "./chord/edit.js";
import { chordGlobTool } from "./chord/glob.js";
import { chordGrepTool } from "./chord/grep.js";
import { chordReadTool } from "./chord/read.js";
import { viewImageTool } from "./chord/view_image.js";
import { chordWriteTool } from "./chord/write.js";
import { doneTool } from "./done.js";
import { editTool } from "./edit.js";
import { exitPlanModeTool } from "./exit_plan_mode.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { jobKillTool } from "./job_kill.js";
import { jobListTool } from "./job_list.js";
import { jobOutputTool } from "./job_output.js";
import { notebookEditTool } from "./notebook_edit.js";
import { readTool } from "./read.js";
import { shellTool } from "./shell.js";
import { terminalIoTool } from "./terminal_io.js";
import { terminalStartTool } from "./terminal_start.js";
import { udiffTool } from "./udiff.js";
import { writeTool } from "./write.js";
import { checkpointTool } from "./checkpoint.js";
import { chordDoneTool } from "./chord/done.js";
import { questionTool } from "./chord/question.js";
import { readArtifactTool } from "./chord/read_artifact.js";
import { saveArtifactTool } from "./chord/save_artifact.js";
import { todoWriteTool } from "./chord/todo_write.js";
import { rewindTool } from "./rewind.js";
import { thinkTool } from "./think.js";
import { writeTodosTool } from "./write_todos.js";
// Code intelligence (tree-sitter loads on first use)
import { listDefinitionsTool } from "./list_definitions.js";
import { structuralEditTool } from "./structural_edit.js";
import { structuralSearchTool } from "./structural_search.js";
// Code intelligence: language servers and test runs
import { lspTool } from "./lsp.js";
import { runTestsTool } from "./run_tests.js";

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
  checkpointTool,
  rewindTool,
  // Code intelligence
  structuralSearchTool,
  structuralEditTool,
  listDefinitionsTool,
  // Code intelligence: language servers and test runs
  lspTool,
  runTestsTool,
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
];

export function builtinHandlers(): Map<string, ToolHandler> {
  return new Map(HANDLERS.map((h) => [h.id, h]));
}
