// An isolated child's workspace for the length of its run: the worktree, and
// commands confined to it (a sandbox whose one writable directory is the
// worktree, with its own jobs and terminal, ended with the child). However
// the child ends, its changes are saved as a patch and the worktree goes;
// a yuj that exits mid-run removes it on the way out, and one killed
// outright leaves a record the next start acts on.

import type { Emit } from "../events.js";
import type { TerminalManager } from "../jobs/terminal.js";
import type { JobManager } from "../jobs/types.js";
import { collectChanges, type ChangeSet } from "./changes.js";
import { openWorktree, removeWorktree, removeWorktreeSync, type Worktree } from "./worktree.js";

/** Commands for one directory: what the session's services are for the project. */
export interface WorkspaceServices {
  jobs: JobManager;
  terminals: TerminalManager;
  /** Ends every job and the terminal. */
  shutdown(): Promise<void>;
}

/** What the session provides for isolated children. */
export interface Isolation {
  /** yuj's state folder, where live worktrees are recorded. */
  stateDir: string;
  /**
   * Whether commands run in the sandbox. Without it a child's command could
   * write the parent's files by their absolute paths, so an isolated child
   * that runs commands is refused then.
   */
  confined(): boolean;
  /** Jobs and a terminal whose commands may write only in `projectDir`. */
  open(projectDir: string, sessionDir: string, emit: Emit): WorkspaceServices;
}

export interface IsolatedWorkspace {
  worktree: Worktree;
  services: WorkspaceServices;
  /** Saves the patch beside the child's trace, then removes everything; the patch, or why there is none. */
  close(): Promise<ChangeSet | { error: string }>;
}

export async function openIsolated(
  parentCwd: string,
  isolation: Isolation,
  task: { id: string; dir: string; emit: Emit },
): Promise<IsolatedWorkspace | { error: string }> {
  const worktree = await openWorktree(parentCwd, isolation.stateDir);
  if ("error" in worktree) return worktree;
  const onExit = () => removeWorktreeSync(worktree);
  process.on("exit", onExit);
  let services: WorkspaceServices;
  try {
    services = isolation.open(worktree.dir, task.dir, task.emit);
  } catch (err) {
    process.off("exit", onExit);
    await removeWorktree(worktree);
    return { error: `the isolated workspace's commands could not be set up: ${(err as Error).message}` };
  }
  return {
    worktree,
    services,
    async close() {
      try {
        // Nothing the child started may still write while its changes are read.
        await services.shutdown();
        return await collectChanges(worktree, task.id, task.dir);
      } catch (err) {
        return { error: `its changes could not be saved: ${(err as Error).message}` };
      } finally {
        await removeWorktree(worktree);
        process.off("exit", onExit);
      }
    },
  };
}
