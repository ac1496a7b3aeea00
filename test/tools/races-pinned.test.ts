// The checked uses one at a time, without a race: each is given a real path
// that was checked, and the place is then changed the way a swapping process
// would change it just before the use. Each use refuses, and leaves the
// outside as it was.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicWriteChecked, checkedReads, readChecked, readlinkChecked, rmdirChecked, unlinkChecked } from "../../tools/lib/pinned-fs.js";

const SWAPPED = "the path changed while it was being opened (a folder on it or the file itself was replaced, e.g. by a symbolic link); nothing was read or changed there";

let root: string;
let project: string;
let outside: string;
beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-pinned-")));
  project = path.join(root, "project");
  outside = path.join(root, "outside");
  await fsp.mkdir(path.join(project, "dir"), { recursive: true });
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(project, "dir", "f.txt"), "inside\n");
  await fsp.writeFile(path.join(outside, "f.txt"), "outside\n");
});
afterEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

const checked = () => path.join(project, "dir", "f.txt");
/** What a swapping process does: the folder moved aside, a link to the outside in its place. */
const swapDir = async () => {
  await fsp.rename(path.join(project, "dir"), path.join(project, "dir.real"));
  await fsp.symlink(outside, path.join(project, "dir"));
};
const swapFile = async () => {
  await fsp.rename(checked(), `${checked()}.real`);
  await fsp.symlink(path.join(outside, "f.txt"), checked());
};
const outsideNow = async () => ({ names: (await fsp.readdir(outside)).sort(), text: await fsp.readFile(path.join(outside, "f.txt"), "utf8") });
const untouched = { names: ["f.txt"], text: "outside\n" };

describe.each([
  { swap: "the folder", run: swapDir },
  { swap: "the file", run: swapFile },
])("after $swap is swapped for a link outside", ({ run }) => {
  it("a read is refused", async () => {
    await run();
    await expect(readChecked(fsp, checked())).rejects.toThrow(SWAPPED);
    await expect(checkedReads(fsp).readFile(checked(), "utf8")).rejects.toThrow(SWAPPED);
  });

  it("a write is refused, the outside unchanged", async () => {
    await run();
    await expect(atomicWriteChecked(fsp, checked(), "new\n")).rejects.toThrow(SWAPPED);
    expect(await outsideNow()).toEqual(untouched);
  });

  it("an unlink is refused or removes only the link, the outside unchanged", async () => {
    await run();
    await unlinkChecked(fsp, checked()).catch(() => undefined);
    expect(await outsideNow()).toEqual(untouched);
  });
});

describe("the checked uses themselves", () => {
  it("read, write and unlink the checked path when nothing changed", async () => {
    expect((await readChecked(fsp, checked())).toString()).toBe("inside\n");
    await fsp.chmod(checked(), 0o751);
    await atomicWriteChecked(fsp, checked(), "new\n");
    expect(await fsp.readFile(checked(), "utf8")).toBe("new\n");
    expect((await fsp.stat(checked())).mode & 0o7777).toBe(0o751);
    await atomicWriteChecked(fsp, path.join(project, "dir", "a", "b", "g.txt"), "g\n", { createParents: true });
    expect(await fsp.readFile(path.join(project, "dir", "a", "b", "g.txt"), "utf8")).toBe("g\n");
    await unlinkChecked(fsp, checked());
    expect(await fsp.readdir(path.join(project, "dir"))).toEqual(["a"]);
  });

  it("new folders are not created through a folder swapped for a link", async () => {
    await swapDir();
    await expect(atomicWriteChecked(fsp, path.join(project, "dir", "new", "g.txt"), "g\n", { createParents: true })).rejects.toThrow(SWAPPED);
    expect(await outsideNow()).toEqual(untouched);
  });

  it("rmdir removes an empty folder only", async () => {
    await fsp.mkdir(path.join(project, "dir", "empty"));
    await rmdirChecked(fsp, path.join(project, "dir", "empty"));
    await expect(rmdirChecked(fsp, path.join(project, "dir"))).rejects.toThrow(/ENOTEMPTY/);
    expect(await fsp.readdir(path.join(project, "dir"))).toEqual(["f.txt"]);
  });

  it("a link's text is read through its checked folder, and refused once the folder is swapped", async () => {
    await fsp.symlink("f.txt", path.join(project, "dir", "l.txt"));
    expect(await readlinkChecked(path.join(project, "dir", "l.txt"), fsp)).toBe("f.txt");
    await swapDir();
    await expect(readlinkChecked(path.join(project, "dir", "l.txt"), fsp)).rejects.toThrow(SWAPPED);
  });

  it("a pipe swapped in for the file is refused without blocking", async () => {
    await fsp.rm(checked());
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [checked()]);
    await expect(readChecked(fsp, checked())).rejects.toThrow(SWAPPED);
  });
});
