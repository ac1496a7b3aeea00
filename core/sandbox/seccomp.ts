// The seccomp filter bwrap installs in every sandbox (`--seccomp FD`), as a
// classic BPF program built here, so no library or compiler is needed.
//
// Always:
//   - creating a user namespace fails (EPERM): inside one a process holds
//     every capability again, over its own namespaces, which is a large kernel
//     surface for nothing a command needs. clone3 answers ENOSYS, because its
//     flags sit in memory the filter cannot read; libc then falls back to
//     clone, whose flags it can.
// With the host network shared (`[sandbox].network = true`, Docker not passed):
//   - socket(AF_UNIX) fails (EACCES). Abstract unix sockets belong to the
//     network namespace, not to the filesystem, so no mount can hide the
//     host's (X11, D-Bus, container shims); the socket's address is in memory
//     the filter cannot read either, so no unix socket can be created at all.
//     socketpair() still works (pipes between a process and its children).
//   - io_uring answers ENOSYS: its requests can create sockets without
//     passing through the socket syscall the filter sees.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isWithin, SECCOMP_FD } from "./bwrap.js";

export interface FilterOptions {
  /** Refuse socket(AF_UNIX) and io_uring. */
  blockUnixSockets: boolean;
}

interface ArchNumbers {
  /** AUDIT_ARCH_* value the kernel reports in seccomp_data.arch. */
  audit: number;
  socket: number;
  /** The i386 multiplexer: SYS_SOCKET through it cannot show its family. */
  socketcall?: number;
  clone: number;
  unshare: number;
  /** Bits cleared from the syscall number first (x32 calls on x86-64). */
  clearBits?: number;
}

// Native and compat ABIs of the two architectures yuj runs on. The numbers
// come from each architecture's syscall table.
const ARCHES: readonly ArchNumbers[] = [
  { audit: 0xc000003e, socket: 41, clone: 56, unshare: 272, clearBits: 0x40000000 }, // x86-64 (and x32)
  { audit: 0x40000003, socket: 359, socketcall: 102, clone: 120, unshare: 310 }, // i386
  { audit: 0xc00000b7, socket: 198, clone: 220, unshare: 97 }, // aarch64
  { audit: 0x40000028, socket: 281, clone: 120, unshare: 337 }, // arm (EABI)
];
// Shared by all four tables.
const CLONE3 = 435;
const IO_URING_FIRST = 425; // io_uring_setup, io_uring_enter, io_uring_register
const IO_URING_LAST = 427;

const AF_UNIX = 1;
const SYS_SOCKET = 1; // socketcall's call number for socket()
const CLONE_NEWUSER = 0x10000000;
const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;

// Classic BPF opcodes and seccomp return values.
const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const AND = 0x54; // BPF_ALU | BPF_AND | BPF_K
const RET = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const errno = (n: number) => 0x00050000 | n;

// seccomp_data: nr (u32), arch (u32), instruction_pointer (u64), args[6] (u64).
const NR = 0;
const ARCH = 4;
const argLow = (i: number) => 16 + 8 * i + (os.endianness() === "LE" ? 0 : 4);

/** One instruction; jumps name labels, resolved when the program is assembled. */
interface Insn {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
  label?: string;
}

const ld = (offset: number): Insn => ({ code: LD_ABS, k: offset });
const ret = (k: number, label?: string): Insn => ({ code: RET, k, ...(label ? { label } : {}) });
const jump = (code: number, k: number, jt: string, jf: string): Insn => ({ code, k, jt, jf });

function archBlock(a: ArchNumbers, i: number, opts: FilterOptions): Insn[] {
  const L = (name: string) => `a${i}-${name}`;
  const out: Insn[] = [{ ...ld(NR), label: L("start") }];
  if (a.clearBits) out.push({ code: AND, k: ~a.clearBits >>> 0 });
  out.push(jump(JEQ, CLONE3, "enosys", L("c1")));
  out.push({ ...jump(JEQ, a.clone, L("flags"), L("c2")), label: L("c1") });
  out.push({ ...jump(JEQ, a.unshare, L("flags"), opts.blockUnixSockets ? L("c3") : "allow"), label: L("c2") });
  if (opts.blockUnixSockets) {
    out.push({ ...jump(JEQ, a.socket, L("family"), L("c4")), label: L("c3") });
    out.push({ ...jump(JGE, IO_URING_FIRST, L("c5"), a.socketcall ? L("c6") : "allow"), label: L("c4") });
    out.push({ ...jump(JGE, IO_URING_LAST + 1, a.socketcall ? L("c6") : "allow", "enosys"), label: L("c5") });
    if (a.socketcall) {
      out.push({ ...jump(JEQ, a.socketcall, L("call"), "allow"), label: L("c6") });
      out.push({ ...ld(argLow(0)), label: L("call") });
      out.push(jump(JEQ, SYS_SOCKET, "eacces", "allow"));
    }
    out.push({ ...ld(argLow(0)), label: L("family") });
    out.push(jump(JEQ, AF_UNIX, "eacces", "allow"));
  }
  out.push({ ...ld(argLow(0)), label: L("flags") });
  out.push(jump(JSET, CLONE_NEWUSER, "eperm", "allow"));
  return out;
}

function program(opts: FilterOptions): Insn[] {
  const insns: Insn[] = [ld(ARCH)];
  ARCHES.forEach((a, i) => insns.push({ ...jump(JEQ, a.audit, `a${i}-start`, i + 1 < ARCHES.length ? `arch${i + 1}` : "allow"), ...(i ? { label: `arch${i}` } : {}) }));
  ARCHES.forEach((a, i) => insns.push(...archBlock(a, i, opts)));
  insns.push(ret(ALLOW, "allow"), ret(errno(EPERM), "eperm"), ret(errno(EACCES), "eacces"), ret(errno(ENOSYS), "enosys"));
  return insns;
}

/** The filter as the kernel's `struct sock_filter` array (what bwrap reads). */
function seccompProgram(opts: FilterOptions): Buffer {
  const insns = program(opts);
  const at = new Map<string, number>();
  insns.forEach((insn, i) => insn.label && at.set(insn.label, i));
  const offset = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const to = at.get(label);
    if (to === undefined || to <= from) throw new Error(`seccomp program: bad jump to ${label}`);
    const off = to - from - 1;
    if (off > 255) throw new Error(`seccomp program: jump to ${label} too far`);
    return off;
  };
  const buf = Buffer.alloc(insns.length * 8);
  const le = os.endianness() === "LE";
  insns.forEach((insn, i) => {
    if (le) buf.writeUInt16LE(insn.code, i * 8);
    else buf.writeUInt16BE(insn.code, i * 8);
    buf.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    buf.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    if (le) buf.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
    else buf.writeUInt32BE(insn.k >>> 0, i * 8 + 4);
  });
  return buf;
}

const dirs = new Map<string, string>();

/** A temp base outside `avoid` (the writable project), so no command can swap the filter file. */
function baseOutside(avoid: string | undefined): string {
  const candidates = [os.tmpdir(), "/tmp"].map((d) => {
    try {
      return fs.realpathSync(d);
    } catch {
      return d;
    }
  });
  return candidates.find((d) => !avoid || !isWithin(d, avoid)) ?? candidates[0]!;
}

/**
 * A file holding the filter, written once per process into a private
 * directory under the host's temp directory (which sandboxed commands never
 * see, unless the project holds it: then /tmp) and removed when yuj exits.
 * The shell that starts bwrap opens it as fd 3.
 */
export function seccompFile(opts: FilterOptions, avoid?: string): string {
  const base = baseOutside(avoid);
  let dir = dirs.get(base);
  if (!dir || !fs.existsSync(dir)) {
    const made = fs.mkdtempSync(path.join(base, "yuj-seccomp-"));
    process.once("exit", () => fs.rmSync(made, { recursive: true, force: true }));
    dirs.set(base, (dir = made));
  }
  const file = path.join(dir, opts.blockUnixSockets ? "no-userns-no-unix.bpf" : "no-userns.bpf");
  if (!fs.existsSync(file)) fs.writeFileSync(file, seccompProgram(opts), { mode: 0o400 });
  return file;
}

/**
 * The program to spawn for `bwrap args...`: a POSIX shell that opens the
 * filter file as fd 3 and then becomes bwrap (same pid, so bwrap still leads
 * the process group and dies with yuj). A file descriptor is the only way
 * bwrap takes a filter, and a PTY spawn cannot hand one over itself.
 */
export function withSeccompFd(bwrapPath: string, args: readonly string[], filterFile: string): { file: string; args: string[] } {
  return { file: "/bin/sh", args: ["-c", `exec ${SECCOMP_FD}<"$1" && shift && exec "$@"`, "yuj-sandbox", filterFile, bwrapPath, ...args] };
}
