// yuj started in $HOME: its config and state directories lie inside the
// project, and the file tools, run through the real CLI with its real
// environment, still refuse to change them (and the project's .yuj/).

import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";

describe("the file tools in a project that holds yuj's own directories", () => {
  it("refuse to write the user config, the trusted list, the sessions and .yuj/config.toml", async () => {
    const env = isolatedEnv();
    const home = env.HOME!;
    mkdirSync(join(home, ".config/yuj"), { recursive: true });
    writeFileSync(join(home, ".config/yuj/config.toml"), "# mine\n");
    mkdirSync(join(home, ".yuj"), { recursive: true });
    writeFileSync(join(home, ".yuj/config.toml"), "# mine\n");

    const write = await runCli(["tool", "write", JSON.stringify({ path: ".config/yuj/trusted.toml", content: "" })], { cwd: home, env });
    expect(write.code).toBe(1);
    expect(write.stdout).toContain(`is in ${join(home, ".config/yuj")}, which holds yuj's user config and the list of trusted projects`);
    const edit = await runCli(["tool", "edit", JSON.stringify({ path: ".yuj/config.toml", old_str: "# mine", new_str: "[sandbox]\nmode = \"off\"" })], { cwd: home, env });
    expect(edit.code).toBe(1);
    expect(edit.stdout).toContain("is in .yuj/, the project's yuj config");

    // `yuj tool` itself made a session folder under the state dir; the model's tools cannot touch it.
    const [session] = readdirSync(join(home, ".local/state/yuj/sessions"));
    const del = await runCli(
      ["tool", "delete", JSON.stringify({ paths: [`.local/state/yuj/sessions/${session}/trace.jsonl`], reason: "x" }), "--profile", "chord", "--yolo"],
      { cwd: home, env },
    );
    expect(del.code).toBe(1);
    expect(del.stdout).toContain("which holds yuj's sessions and their locks");
    expect(readFileSync(join(home, ".config/yuj/config.toml"), "utf8")).toBe("# mine\n");
    expect(readFileSync(join(home, ".yuj/config.toml"), "utf8")).toBe("# mine\n");
    expect(readdirSync(join(home, ".config/yuj"))).toEqual(["config.toml"]);
    expect(readFileSync(join(home, ".local/state/yuj/sessions", session!, "trace.jsonl"), "utf8")).not.toBe("");
  }, 60_000);
});
