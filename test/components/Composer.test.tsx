import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import { Composer } from "../../components/Composer.js";
import { mount, press, unmountAll } from "../support/ink-act.js";

// ink-testing-library delivers each write as one stdin chunk; press() returns
// once React has rendered what it caused, so the next key sees the new state.
const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");

async function setup(history: string[] = [], active = true) {
  const sent: string[] = [];
  const changes: string[] = [];
  const r = await mount(
    <Composer active={active} width={40} history={history} onSubmit={(t) => sent.push(t)} onChange={(t) => changes.push(t)} />,
  );
  const type = (...chunks: string[]) => press(r, ...chunks);
  return { r, sent, changes, type };
}

afterEach(unmountAll);

describe("Composer", () => {
  it("shows the prompt glyph and sends typed text on Enter", async () => {
    const { r, sent, type } = await setup();
    expect(frame(r)).toContain("›");
    await type("h", "i", " there");
    expect(frame(r)).toContain("hi there");
    await type("\r");
    expect(sent).toEqual(["hi there"]);
    expect(frame(r)).not.toContain("hi there");
  });

  it("does not send an empty or blank message", async () => {
    const { sent, type } = await setup();
    await type("\r", "   ", "\r");
    expect(sent).toEqual([]);
  });

  it("Ctrl+J and Shift+Enter insert newlines instead of sending", async () => {
    const { r, sent, type } = await setup();
    // Ctrl+J; Shift+Enter as the kitty protocol and as ESC CR (Alt/Option+Enter) send it.
    await type("one", "\n", "two", "\x1b[13;2u", "three", "\x1b\r", "four");
    expect(sent).toEqual([]);
    expect(frame(r).split("\n").map((l) => l.trim())).toEqual(["› one", "two", "three", "four"]);
    await type("\r");
    expect(sent).toEqual(["one\ntwo\nthree\nfour"]);
  });

  it("edits with Left, Backspace, forward Delete, Home and End", async () => {
    const { sent, type } = await setup();
    await type("abcd", "\x1b[D", "\x1b[D", "\x7f", "X", "\x1b[3~", "\x1b[H", ">", "\x1b[F", "!", "\r");
    expect(sent).toEqual([">aXd!"]);
  });

  it("recalls history with Up and returns to the draft with Down", async () => {
    const { r, sent, type } = await setup(["first", "second"]);
    await type("draft", "\x1b[A");
    expect(frame(r)).toContain("second");
    await type("\x1b[A");
    expect(frame(r)).toContain("first");
    await type("\x1b[B", "\x1b[B");
    expect(frame(r)).toContain("draft");
    await type("\x1b[A", "\r");
    expect(sent).toEqual(["second"]);
  });

  it("Up moves between lines before it recalls history", async () => {
    const { sent, type } = await setup(["old"]);
    await type("ab", "\n", "cd", "\x1b[A", "X", "\r");
    expect(sent).toEqual(["abX\ncd"]);
  });

  it("collapses a one-line paste of more than 1000 characters", async () => {
    const { r, sent, type } = await setup();
    const long = "x".repeat(1500);
    await type(`\x1b[200~${long}\x1b[201~`);
    expect(frame(r)).toContain("[Pasted 1500 chars]");
    await type("\r");
    expect(sent).toEqual([long]);
  });

  it("Ctrl+U clears the message", async () => {
    const { r, sent, changes, type } = await setup();
    await type("some words", "\x15");
    expect(frame(r)).not.toContain("some words");
    expect(changes.at(-1)).toBe("");
    await type("\r");
    expect(sent).toEqual([]);
  });

  it("collapses a long bracketed paste and sends the full text", async () => {
    const { r, sent, type } = await setup();
    const text = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join("\n");
    await type("see: ", `\x1b[200~${text}\x1b[201~`);
    expect(frame(r)).toContain("see: [Pasted 12 lines]");
    expect(sent).toEqual([]);
    await type(" ok", "\r");
    expect(sent).toEqual([`see: ${text} ok`]);
  });

  it("sends text and Enter that arrive in one chunk (fast typing)", async () => {
    const { sent, type } = await setup();
    await type("abc\r");
    expect(sent).toEqual(["abc"]);
  });

  it("treats a chunk with line breaks inside as a paste, not as Enter", async () => {
    const { r, sent, type } = await setup();
    await type("x\ra\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n");
    expect(frame(r)).toContain("[Pasted 12 lines]");
    expect(sent).toEqual([]);
    await type("\r");
    expect(sent).toEqual(["x\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"]);
  });

  it("keeps a short paste inline and deletes a chip as one unit", async () => {
    const { r, sent, type } = await setup();
    await type("\x1b[200~x\ny\x1b[201~");
    expect(frame(r)).toContain("y");
    expect(frame(r)).not.toContain("Pasted");
    // Ctrl+U deletes to the start of the line; Backspace joins the line above, Ctrl+U clears it.
    await type("\x15", "\x7f", "\x15", `\x1b[200~${Array.from({ length: 11 }, (_, i) => i).join("\n")}\x1b[201~`, "\x7f", "z", "\r");
    expect(sent).toEqual(["z"]);
  });

  it("ignores input when not active", async () => {
    const { r, sent, type } = await setup([], false);
    await type("hello", "\r");
    expect(sent).toEqual([]);
    expect(frame(r)).not.toContain("hello");
  });

  it("wraps long lines to the width", async () => {
    const { r, type } = await setup();
    await type("word ".repeat(20).trim());
    const lines = frame(r).split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });
});
