"""docker, podman, compose and the container runtimes: read-only subcommands; everything else writes."""

from __future__ import annotations

import re
import shlex

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes
from rcaloop.judge.actions.tools.base import Subcommands, after_options, has, runs, words

_EXEC_VALUES = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"})
_COMPOSE_VALUES = frozenset({"-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile",
                             "--ansi", "--parallel", "--progress"})

COMPOSE = Subcommands(
    reads=frozenset({"ps", "logs", "config", "images", "top", "ls", "version", "events", "port", "convert", "help"}),
    writes=frozenset({"up", "down", "start", "stop", "restart", "rm", "kill", "pull", "push", "build", "create", "run",
                      "exec", "pause", "unpause", "scale", "cp", "watch"}),
    value_options=_COMPOSE_VALUES,
    inner=(("exec", runs(_EXEC_VALUES | {"--index"}, skip=1)),),
)


def _compose(args: list[str], reader: Reader) -> Verdict | None:
    return COMPOSE("docker compose", args, reader)


_RUN_VALUES = frozenset({
    "-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--name", "--platform", "--pull", "-m", "--memory",
    "--cpus", "--network", "--net", "-v", "--volume", "--mount", "-p", "--publish", "-l", "--label", "--pid", "--ipc",
    "--entrypoint", "--add-host", "--dns", "--hostname", "-h", "--cap-add", "--device", "--security-opt",
    "--tmpfs", "--ulimit", "--userns", "--uts", "--gpus", "--runtime", "--stop-signal", "--log-driver",
})
_HOST_REACH = ("--privileged", "--pid", "--ipc", "--cap-add", "--device", "--entrypoint", "-d", "--detach", "--restart")


def _run(args: list[str], reader: Reader) -> Verdict:
    """``docker run --rm IMAGE cmd``: a throwaway container judged by the command it runs (``git --version``
    reads; ``apt-get update`` changes only the container). It writes when the command reaches out (a network
    client, ``ssh``, a publish), when it outlives the command (no ``--rm``, ``-d``, ``--restart``), reaches into
    the host (``--privileged``, ``--pid``, ``--device``, a mount not marked ``:ro``), replaces what the image runs
    (``--entrypoint``) or runs nothing named (the image's own command)."""
    opts, _ = words(args, _RUN_VALUES)
    mounts = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-v", "--volume", "--mount")]
    mounts += [o.split("=", 1)[1] for o in opts if o.startswith(("--volume=", "--mount="))]
    if not has(opts, "--rm") or has(opts, *_HOST_REACH) or any(
            not m.endswith((":ro", ",readonly", ",ro")) for m in mounts):
        return writes("docker run")
    rest = after_options(args, _RUN_VALUES)
    inner = reader.argv(rest[1:]) if len(rest) > 1 else None
    if inner is None:
        return writes("docker run")
    if not inner.writes or all(_stays_inside(part) for part in _commands_of(rest[1:])):
        return reads("docker run")
    return writes("docker run")


_REACHES_OUT = frozenset({"ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "ftp"})
_REMOTE_WORDS = ("publish", "unpublish", "push", "upload", "deprecate", "login", "owner", "dist-tag", "yank")


def _commands_of(argv: list[str]) -> list[str]:
    """The commands a container runs: a shell's ``-c`` script split at ``;``, ``&&``, ``||``, ``|`` and line
    ends, or the one command given."""
    if argv and argv[0].rsplit("/", 1)[-1] in ("sh", "bash", "ash", "dash", "zsh") and "-c" in argv[1:-1]:
        script = argv[argv.index("-c") + 1]
        return [p.strip() for p in re.split(r";|&&|\|\||\||\n", script) if p.strip()]
    return [shlex.join(argv)]


def _stays_inside(command: str) -> bool:
    """What the command writes stays in the throwaway container (its own packages and files: ``apt-get
    update``, ``pip install``, ``> /tmp/x``), so the host and every other system are untouched. A network
    client, a remote shell or a publish reaches out; a command of no known tool may (fail closed)."""
    from rcaloop.judge.actions.commands import judge_line  # noqa: PLC0415 (the tool table imports this module)
    from rcaloop.judge.actions.tools import hosts, packages  # noqa: PLC0415

    found = judge_line(command)
    if found is None or not found.writes:
        return True
    tool = found.verb.split()[0] if found.verb else ""
    runs = {w.rsplit("/", 1)[-1] for w in command.split()}  # "ssh prod rm -rf /data" reaches out, whatever it runs
    return (not found.unread and (tool in hosts.TOOLS or tool in packages.TOOLS) and not runs & _REACHES_OUT
            and not any(w in found.verb for w in _REMOTE_WORDS))


_GROUPS = ("image", "container", "network", "volume", "system", "node", "service", "stack", "secret", "config",
           "context", "buildx", "manifest", "plugin", "trust", "pod", "machine", "swarm", "checkpoint", "builder",
           "generate", "kube", "artifact")

DOCKER = Subcommands(
    reads=frozenset({
        "ps", "logs", "inspect", "images", "stats", "top", "version", "info", "events", "history", "port", "diff",
        "search", "help", "healthcheck run", "system connection list", "kube generate",
        *(f"* {r}" for r in ("ls", "list", "inspect", "ps", "logs", "top", "stats", "port", "diff", "history", "show",
                              "df", "info", "events", "services", "version")),
    }),
    writes=frozenset({
        "run", "exec", "rm", "rmi", "kill", "stop", "start", "restart", "pause", "unpause", "create", "cp", "commit",
        "pull", "push", "build", "tag", "load", "save", "import", "export", "login", "logout", "update", "rename",
        "prune", "attach", "wait", "compose", *(f"{g} *" for g in _GROUPS),
    }),
    groups=frozenset({*_GROUPS, "system connection"}),
    value_options=frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "--url",
                             "--connection", "--remote"}),
    inner=(("exec", runs(_EXEC_VALUES, skip=1)), ("compose", _compose), ("run", _run)),
)

CRICTL = Subcommands(
    reads=frozenset({"ps", "pods", "images", "img", "inspect", "inspectp", "inspecti", "logs", "stats", "statsp",
                     "info", "version", "imagefsinfo", "port-forward", "help", "config --get"}),
    writes=frozenset({"rm", "rmp", "rmi", "stop", "stopp", "start", "runp", "create", "run", "pull", "update",
                      "attach", "exec", "checkpoint"}),
    value_options=frozenset({"-r", "--runtime-endpoint", "-i", "--image-endpoint", "-t", "--timeout", "--config"}),
    inner=(("exec", runs(frozenset(), skip=1)),),
)

_CTR_GROUPS = frozenset({"containers", "container", "c", "images", "image", "i", "tasks", "task", "t", "namespaces",
                         "namespace", "ns", "snapshots", "snapshot", "content", "leases", "plugins", "plugin"})
CTR = Subcommands(
    reads=frozenset({"* ls", "* list", "* info", "* metrics", "* ps", "version", "info", "help"}),
    groups=_CTR_GROUPS,
    value_options=frozenset({"-n", "--namespace", "-a", "--address"}),
)

TOOLS = {
    "docker": DOCKER, "podman": DOCKER, "nerdctl": DOCKER, "docker-compose": COMPOSE, "podman-compose": COMPOSE,
    "crictl": CRICTL, "ctr": CTR,
}
PROSE = frozenset({"docker", "podman", "nerdctl", "docker-compose", "podman-compose", "crictl"})
