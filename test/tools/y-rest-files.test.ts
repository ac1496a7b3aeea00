// write and edit against the reference's file tools: an absolute path inside
// the project is echoed relative in every answer, as read already echoes it
// (the model gets one name for one file); a path with a newline is refused
// before anything is written. Real files in a fresh project.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const send = (name: string, args: unknown) => yujCall(t, name, args);
const inProject = (rel: string) => path.join(t.cwd, rel);
const text = (rel: string) => fs.readFileSync(inProject(rel), "utf8");

describe("an absolute path inside the project", () => {
  it("write names it relative: a new file in a new folder, and a directory in the way", async () => {
    expect(await send("write", { path: inProject("sub/new.txt"), content: "hello world" })).toEqual({ ok: true, text: "OK: wrote 11 bytes to sub/new.txt" });
    expect(text("sub/new.txt")).toBe("hello world");
    expect(await send("write", { path: inProject("sub"), content: "x" })).toEqual({
      ok: false,
      text: "ERROR: sub is a directory — choose a different name or remove the directory first.",
    });
  });

  it("edit names it relative when old_str is missing or matches twice, and changes nothing", async () => {
    fs.writeFileSync(inProject("a.py"), "pass\n\npass\n");
    expect(await send("edit", { path: inProject("a.py"), old_str: "zzz_not_there", new_str: "x" })).toEqual({ ok: false, text: "ERROR: old_str not found in a.py" });
    const twice = await send("edit", { path: inProject("a.py"), old_str: "pass", new_str: "yield" });
    expect(twice.text.split("\n")[0]).toBe("ERROR: old_str matches more than once in a.py. No changes made. Include unique surrounding text in old_str.");
    expect(twice.text).toContain('<candidates total="2" cause_hint="multiple_matches" path="a.py">');
    expect(text("a.py")).toBe("pass\n\npass\n");
    fs.mkdirSync(inProject("sub"));
    expect(await send("edit", { path: inProject("sub"), old_str: "a", new_str: "b" })).toEqual({ ok: false, text: "ERROR: cannot edit sub: it is a directory" });
  });

  it("read, write and edit agree on the name; the edit lands", async () => {
    fs.writeFileSync(inProject("file.txt"), "old text here");
    expect(await send("edit", { path: inProject("file.txt"), old_str: "old", new_str: "new" })).toEqual({ ok: true, text: "OK" });
    expect(text("file.txt")).toBe("new text here");
    expect(await send("read", { path: inProject("file.txt"), limit: 1 })).toEqual({ ok: true, text: "1: new text here" });
  });

  it("a relative path is echoed exactly as written", async () => {
    expect(await send("write", { path: "./dir/../b.txt", content: "é" })).toEqual({ ok: true, text: "OK: wrote 1 bytes to ./dir/../b.txt" });
    expect(text("b.txt")).toBe("é");
  });
});

describe("a path holding a newline", () => {
  it("is refused by write and edit before anything is written", async () => {
    fs.writeFileSync(inProject("a"), "x");
    expect(await send("write", { path: "a\nb.txt", content: "x" })).toEqual({ ok: false, text: "ERROR: path contains forbidden character (newline or NUL)" });
    expect(await send("edit", { path: "a\nb.txt", old_str: "x", new_str: "y" })).toEqual({ ok: false, text: "ERROR: path contains forbidden character (newline or NUL)" });
    expect(fs.readdirSync(t.cwd)).toEqual(["a"]);
  });
});

describe("grep over a path that is not there", () => {
  it("keeps the reference's 'grep failed' words and adds the existing path meant", async () => {
    fs.mkdirSync(inProject("src"));
    fs.writeFileSync(inProject("src/app.py"), "needle\n");
    expect(await send("grep", { pattern: "needle", path: "scr" })).toEqual({
      ok: false,
      text: "ERROR: grep failed: scr: No such file or directory (os error 2) (did you mean 'src'?)",
    });
    expect(await send("grep", { pattern: "needle", path: "src/app.pyy" })).toEqual({
      ok: false,
      text: "ERROR: grep failed: src/app.pyy: No such file or directory (os error 2) (did you mean 'src/app.py'?)",
    });
    expect(await send("grep", { pattern: "needle", path: "nothing_like_it_here" })).toEqual({
      ok: false,
      text: "ERROR: grep failed: nothing_like_it_here: No such file or directory (os error 2)",
    });
  });
});
