// Container and cluster commands that allocate a TTY (`docker exec -it`,
// `kubectl exec -it`) or prompt for credentials (`docker login`). Only the
// options before the image or container name count: `docker run alpine ls -t`
// passes -t to ls.

import { finding, type InteractiveFinding } from "./interactive.js";
import { subcommand } from "./interactive-git.js";

const CONTAINER_GLOBAL_VALUED = new Set(["-c", "--config", "--context", "-H", "--host", "--log-level", "--tlscacert", "--tlscert", "--tlskey", "--connection", "--url", "--identity"]);

/** docker/podman run/exec options whose value is the next word. */
const CONTAINER_VALUED = new Set(
  (
    "-a --attach -e --env --env-file -v --volume -w --workdir -u --user --name -p --publish --network --net " +
    "--entrypoint --mount -l --label --label-file --platform --hostname -h --cpus -m --memory --add-host --device " +
    "--cap-add --cap-drop --restart --pull --log-driver --log-opt --dns --ulimit --tmpfs --shm-size --gpus --runtime " +
    "--pid --ipc --detach-keys --cidfile --security-opt --stop-signal --stop-timeout --link --expose --group-add " +
    "--health-cmd --health-interval --health-retries --health-timeout --cgroup-parent --cpu-shares --cpuset-cpus"
  ).split(" "),
);

const KUBECTL_GLOBAL_VALUED = new Set(
  (
    "--as --as-group --as-uid --cache-dir --certificate-authority --client-certificate --client-key --cluster " +
    "--context --kubeconfig -n --namespace --password --profile --request-timeout -s --server --token --user --username"
  ).split(" "),
);

function isTtyOption(a: string): boolean {
  if (a === "--tty" || a === "--tty=true") return true;
  return /^-[A-Za-z]+$/.test(a) && a.includes("t");
}

const TTY_HINT = "Drop -t/--tty (keep -i only if you pipe input in), so the command runs without a terminal.";

export function containerFinding(name: string, args: readonly string[]): InteractiveFinding | undefined {
  const found = subcommand(args, CONTAINER_GLOBAL_VALUED);
  if (!found) return undefined;
  const { sub, rest } = found;
  if (sub === "login" && !rest.includes("--password-stdin")) {
    return finding(`${name} login`, `\`${name} login\` may prompt for credentials`, "Pass the password on stdin with --password-stdin.");
  }
  if (sub !== "run" && sub !== "exec" && sub !== "start") return undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === "--" || !a.startsWith("-")) return undefined;
    if (isTtyOption(a)) return finding(`${name} ${sub} -t`, `\`${name} ${sub} -t\` allocates a TTY`, TTY_HINT);
    if (CONTAINER_VALUED.has(a)) i++;
  }
  return undefined;
}

export function kubectlFinding(args: readonly string[]): InteractiveFinding | undefined {
  const found = subcommand(args, KUBECTL_GLOBAL_VALUED);
  if (!found || !["exec", "run", "attach"].includes(found.sub)) return undefined;
  for (const a of found.rest) {
    if (a === "--") return undefined;
    if (isTtyOption(a)) return finding(`kubectl ${found.sub} -t`, `\`kubectl ${found.sub} -t\` allocates a TTY`, TTY_HINT);
  }
  return undefined;
}
