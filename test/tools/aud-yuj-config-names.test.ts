// The reference's plan-mode settings file, loaded as `--config` loads it:
// its name for the planning phase's limit, [loop].plan_mode_max_turns, is
// read as yuj's plan_max_turns with a note, and a bad value or both names
// are errors naming the key as written.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aud-yuj-config-"));
  file = path.join(dir, "plan.toml");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const load = (body: string) => {
  fs.writeFileSync(file, body);
  return loadConfig({ cwd: dir, env: { HOME: dir }, home: dir, configFiles: [file] });
};

describe("[loop].plan_mode_max_turns, the reference's name", () => {
  it("is read as plan_max_turns, with a note", () => {
    const loaded = load('[loop]\nplan_mode = "required"\nplan_mode_max_turns = 7\n');
    expect(loaded.config.loop.plan_mode).toBe("required");
    expect(loaded.config.loop.plan_max_turns).toBe(7);
    expect(loaded.notes).toEqual([
      `${file}: loop.plan_mode_max_turns is read as loop.plan_max_turns (yuj's name for the setting); rename the key to silence this note`,
    ]);
  });

  it("refuses 0 and a mode the reference does not have, naming the key", () => {
    expect(() => load("[loop]\nplan_mode_max_turns = 0\n")).toThrow(/loop\.plan_mode_max_turns \(read as loop\.plan_max_turns\): expected a positive integer, got number 0/);
    expect(() => load('[loop]\nplan_mode = "sometimes"\n')).toThrow(/loop\.plan_mode: expected one of "off", "required", got string "sometimes"/);
  });

  it("refuses both names in one file", () => {
    expect(() => load("[loop]\nplan_mode_max_turns = 7\nplan_max_turns = 9\n")).toThrow(
      /loop\.plan_mode_max_turns and loop\.plan_max_turns are both set: plan_mode_max_turns is another name for plan_max_turns; remove plan_mode_max_turns/,
    );
  });
});
