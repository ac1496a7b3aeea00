// A file the user attaches with @path counts, on the Chord surface, as a
// version the model has seen (the reference records a mentioned file's
// snapshot): when it then changes on disk, edit warns and backs it up, as it
// does after a read. Run with the built yuj and a scripted model, on real
// files.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf } from "../support/delegation.js";

async function editAfterOutsideChange(message: string) {
  const cwd = delegationProject(
    {
      turns: [
        // Someone else changes the file after the model was shown it.
        { tool_calls: [{ name: "shell", arguments: { command: "printf 'changed\\n' > notes.txt", description: "outside change" } }] },
        { tool_calls: [{ name: "edit", arguments: { path: "notes.txt", old_string: "changed", new_string: "fixed" } }] },
        { text: "done" },
      ],
    },
    { files: { "notes.txt": "draft\n" }, toml: '[sandbox]\nmode = "off"\n' },
  );
  const res = await runCli(["code", message, "--config", "chord.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
  expect(res.code, res.stderr).toBe(0);
  const edit = rowsOf(res.stdout).find((r) => r.type === "tool_result" && r.name === "edit")!;
  return { cwd, edit };
}

describe("an @-mentioned file is a sighting for Chord's drift warning", () => {
  it("attached, then changed on disk: the edit applies to the current content, warns and backs up what it replaced", async () => {
    const { cwd, edit } = await editAfterOutsideChange("tidy up @notes.txt");
    expect(edit.ok).toBe(true);
    const m = /^Replaced 1 occurrence \(8 bytes -> 6 bytes\)\nwarning: notes\.txt changed on disk since it was last read; the edit was applied to the current content \(previous content backed up to (\S+)\)$/.exec(edit.modelText);
    expect(m, edit.modelText).not.toBeNull();
    expect(readFileSync(m![1]!, "utf8")).toBe("changed\n");
    expect(readFileSync(`${cwd}/notes.txt`, "utf8")).toBe("fixed\n");
  }, 90_000);

  it("never shown (no mention, no read): no warning", async () => {
    const { edit } = await editAfterOutsideChange("tidy up notes.txt");
    expect([edit.ok, edit.modelText]).toEqual([true, "Replaced 1 occurrence (8 bytes -> 6 bytes)"]);
  }, 90_000);
});
