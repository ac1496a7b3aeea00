// Before a step that may change files, the work tree is checkpointed, so the
// operator can rewind to it. What may change files is what the call's tool
// says of it: anything beyond inspecting, talking to the operator, reaching
// the network or stopping a command (an edit, a command, a delegated
// worker). The guard refuses nothing: it only waits for the checkpoint.

import type { Checkpointer } from "../../core/checkpoints/recorder.js";
import type { Guard } from "../../core/guards/types.js";
import type { ToolEffect } from "../../core/tool-types.js";

const LEAVES_FILES: ReadonlySet<ToolEffect> = new Set(["inspect", "converse", "network", "stop"]);

export function workspaceCheckpointGuard(checkpoints: Checkpointer): Guard {
  return {
    name: "workspace-checkpoint",
    async before(call) {
      if ([...call.effects].some((e) => !LEAVES_FILES.has(e))) await checkpoints.beforeStep();
      return undefined;
    },
  };
}
