// The slash commands' decisions, pure: what each sends the session, what it
// asks of the front end, and the message a bad argument gets.

import { describe, expect, it } from "vitest";
import { completeSlash, slashAction, slashMatches } from "../../components/slash.js";
import { initialUi } from "../../components/ui-state.js";

const ui = initialUi(false);
const act = (text: string, yolo = false) => slashAction(text, { yolo });

describe("slash commands", () => {
  it("send the session operations", () => {
    expect(act("/rename  Fix the parser ").op).toEqual({ type: "rename_session", name: "Fix the parser" });
    expect(act("/yolo on").op).toEqual({ type: "set_yolo", on: true });
    expect(act("/yolo off", true).op).toEqual({ type: "set_yolo", on: false });
    expect(act("/yolo", true).op).toEqual({ type: "set_yolo", on: false });
    expect(act("/rules").op).toEqual({ type: "list_rules" });
    expect(act("/rules").ui(ui).overlay).toBe("rules");
    expect(act("/stats").ui(ui).overlay).toBe("stats");
  });

  it("ask the front end for files and other sessions", () => {
    expect(act("/clear").action).toEqual({ kind: "new" });
    expect(act("/new").action).toEqual({ kind: "new" });
    expect(act("/resume").action).toEqual({ kind: "resume" });
    expect(act("/export").action).toEqual({ kind: "export", json: false });
    expect(act("/export --json out/t.json").action).toEqual({ kind: "export", json: true, path: "out/t.json" });
    expect(act("/export t.md --json").action).toEqual({ kind: "export", json: true, path: "t.md" });
    expect(act("/init").action).toEqual({ kind: "init", overwrite: false });
    expect(act("/init --force").action).toEqual({ kind: "init", overwrite: true });
  });

  it("say what is wrong with an argument, and send nothing", () => {
    const said = (text: string) => {
      const a = act(text);
      expect(a.op).toBeUndefined();
      expect(a.action).toBeUndefined();
      return a.ui(ui).flash;
    };
    expect(said("/rename")).toBe("/rename needs a name: /rename NAME");
    expect(said("/yolo maybe")).toBe("/yolo takes on or off, not maybe");
    expect(said("/export a b")).toBe("/export takes one path, not 2: a b");
    expect(said("/export -x")).toBe("/export takes a path and --json, not -x");
    expect(said("/init now")).toBe("/init takes no argument but --force, not now");
    expect(said("/bogus")).toMatch(/^unknown command \/bogus: the commands are \/help .*\/rules .*\/init/);
  });

  it("are listed and completed", () => {
    expect(slashMatches("/re").map(([n]) => n)).toEqual(["/resume", "/rename", "/rewind"]);
    expect(slashAction("/rewind", { yolo: false }).ui(initialUi(true)).overlay).toBe("rewind");
    expect(completeSlash("/ren")).toBe("/rename ");
    expect(completeSlash("/st")).toBe("/stats ");
  });
});
