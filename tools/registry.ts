// Every handler shipped with yuj, keyed by id. Profiles refer to handlers by
// these ids; adding a tool means adding its handler to this list.

import type { ToolHandler } from "../core/tool-types.js";
import { bashTool } from "./bash.js";
import { doneTool } from "./done.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

const HANDLERS: readonly ToolHandler[] = [bashTool, readTool, writeTool, editTool, globTool, grepTool, doneTool];

export function builtinHandlers(): Map<string, ToolHandler> {
  return new Map(HANDLERS.map((h) => [h.id, h]));
}
