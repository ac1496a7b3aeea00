// A sandboxed job's first process. bwrap runs every command in its own pid
// namespace, and the namespace ends (the kernel kills what it holds) as soon
// as the process bwrap started exits. Run directly, a command whose shell
// exits while it leaves work behind (`nohup x &`) would lose that work at
// once, unlike the same command outside the sandbox. So bwrap starts this
// supervisor instead: it runs the command's shell; when the shell exits
// while other processes of the namespace still run, it says so on a pipe of
// its own (fd 4, which the command does not inherit) and waits until none
// runs; then it exits with the shell's status. The job then ends exactly when its last process
// does, and a kill of the job still stops all of it (bwrap leads the group,
// and with it gone the namespace ends).

/** The descriptor the supervisor reports on; yuj reads its other end (3 carries bwrap's seccomp filter). */
export const STATUS_FD = 4;

// Pure bash builtins in the scan (no process of its own to count): every
// /proc entry except the namespace's init (1) and the supervisor itself,
// zombies excluded (init reaps them).
const SUPERVISOR = `others() {
  local p stat state
  for p in /proc/[0-9]*; do
    case "\${p#/proc/}" in 1|$$) continue ;; esac
    read -r stat 2>/dev/null < "$p/stat" || continue
    state=\${stat##*) }
    [ "\${state%% *}" = Z ] && continue
    return 0
  done
  return 1
}
bash -o pipefail -c "$1" ${STATUS_FD}>&-
s=$?
others && printf 'left-running %d\\n' "$s" >&${STATUS_FD} 2>/dev/null
exec ${STATUS_FD}>&-
while others; do sleep 0.1; done
exit "$s"`;

/** The argv bwrap runs for `command`: the supervisor around `bash -o pipefail -c command`. */
export function supervisedArgv(command: string): string[] {
  return ["bash", "-c", SUPERVISOR, "yuj-job", command];
}

/** The shell's status when the supervisor reports it exited leaving processes running. */
export function leftRunningStatus(line: string): number | undefined {
  const m = /^left-running (\d+)$/.exec(line.trim());
  return m ? Number(m[1]) : undefined;
}
