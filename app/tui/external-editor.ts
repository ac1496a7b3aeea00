// Ctrl+X Ctrl+E: the composer's text in the user's editor ($VISUAL, then
// $EDITOR, then vi). The UI gives the terminal to the editor for as long as
// it runs: no frames are drawn, keys are not read, raw mode and the
// alternate screen are left; then all of that comes back, the screen is
// drawn whole, and the edited text goes back to the composer.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../core/paths.js";

/** What the editor's run needs of the UI: to hand the terminal over, and to take it back. */
export interface TerminalHandover {
  release(): void;
  retake(): void;
}

export interface EditorResult {
  text?: string;
  /** Why the text was left as it was (the editor failed, or could not start). */
  problem?: string;
}

function editorCommand(env: Env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/** A text edited in the user's editor. The command may carry arguments (`code --wait`); the file is its last. */
export async function editInEditor(text: string, env: Env, terminal: TerminalHandover): Promise<EditorResult> {
  const dir = mkdtempSync(join(tmpdir(), "yuj-edit-"));
  const file = join(dir, "message.md");
  writeFileSync(file, text);
  const command = editorCommand(env);
  terminal.release();
  try {
    const code = await new Promise<number | string>((done) => {
      // Through the shell, so `$EDITOR` may hold arguments as it does for git.
      const child = spawn("/bin/sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit", env: env as NodeJS.ProcessEnv });
      child.on("error", (err) => done(err.message));
      child.on("exit", (status, signal) => done(status ?? `killed by ${signal}`));
    });
    if (code !== 0) return { problem: `the editor (${command}) ended with ${typeof code === "number" ? `exit code ${code}` : code}: the message is unchanged` };
    // Editors end a file with a newline the user did not type.
    return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } finally {
    terminal.retake();
    rmSync(dir, { recursive: true, force: true });
  }
}
