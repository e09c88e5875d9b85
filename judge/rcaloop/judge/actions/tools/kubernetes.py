"""kubectl, oc, helm, flux, argocd and their kin: read-only subcommands; everything else writes."""

from __future__ import annotations

from rcaloop.judge.actions.commands import Reader, Verdict
from rcaloop.judge.actions.tools.base import Subcommands, always, matches, runs, words

_KUBE_VALUES = frozenset({
    "-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server", "--token", "--as",
    "--as-group", "--request-timeout", "-l", "--selector", "-o", "--output", "-c", "--container", "-f", "--filename",
    "-k", "--kustomize", "--field-selector", "--sort-by", "--template", "-L", "--label-columns", "--since", "--tail",
    "--since-time", "--timeout", "--for", "--type", "-p", "--patch", "--image", "--replicas", "--to-revision",
    "--grace-period", "--cascade", "--chunk-size", "--subresource", "--revision", "--pod-running-timeout", "-v",
})
_KUBE_READS = frozenset({
    "get", "describe", "logs", "log", "top", "explain", "api-resources", "api-versions", "version", "cluster-info",
    "auth can-i", "auth whoami", "diff", "events", "alpha events", "rollout status", "rollout history",
    "config view", "config get-contexts", "config current-context", "config get-clusters", "config get-users",
    "wait", "port-forward", "proxy", "kustomize", "completion", "plugin list", "options", "help",
    "apply view-last-applied", "certificate", "status", "whoami", "projects", "project", "adm top", "observe",
    "attach",
})
_KUBE_WRITES = frozenset({
    "apply", "create", "delete", "edit", "patch", "replace", "scale", "autoscale", "set", "label", "annotate",
    "drain", "cordon", "uncordon", "taint", "expose", "run", "cp", "debug", "rollout", "certificate approve",
    "certificate deny", "exec", "rsh", "rollback", "start-build", "new-app", "adm",
})
_EXEC_VALUES = frozenset({"-c", "--container", "-n", "--namespace", "-f", "--filename", "--pod-running-timeout",
                          "--context", "--kubeconfig"})

def _debugged(args: list[str], reader: Reader) -> Verdict | None:
    """``kubectl debug node/x --image=busybox -- cat /host/etc/…`` runs its command in a throwaway pod: the
    command decides; without one it opens a shell on the node, which can do anything (writes)."""
    if "--" in args:
        return reader.argv(args[args.index("--") + 1:])
    return Verdict(True, "kubectl debug")


_KUBE_INPUT = (("attach", ("-i", "--stdin")),)
"""``attach`` streams a running container's output (reads); with ``-i`` it passes stdin to the
process, which can then act on it (writes). ``-t`` without ``-i`` sends nothing: kubectl
drops the TTY when stdin is not passed."""
COBRA_HELP = frozenset({"-h", "--help"})
"""cobra's help options: any built-in subcommand given them prints its help and runs nothing (a
plugin is read before the table and takes its own options)."""

_KUBE_GROUPS = frozenset({"rollout", "config", "auth", "plugin", "apply", "certificate", "alpha", "adm", "set",
                          "create"})

_KUBECTL = Subcommands(
    reads=_KUBE_READS,
    writes=_KUBE_WRITES,
    groups=_KUBE_GROUPS,
    value_options=_KUBE_VALUES,
    write_flags=_KUBE_INPUT,
    help_options=COBRA_HELP,
    inner=(("exec", runs(_EXEC_VALUES, skip=1)), ("rsh", runs(_EXEC_VALUES, skip=1)), ("debug", _debugged)),
)



def KUBECTL(name: str, args: list[str], reader: Reader) -> Verdict | None:  # noqa: N802  # a table like the others
    """the subcommand decides (listed below); a plugin (``kubectl argo rollouts status``, ``kubectl
    cnpg status``) is read as its own command ``kubectl-NAME …``: by its table when known, else as
    an unknown tool (a status word reads, a change word writes, anything else fails closed)."""
    _, pos = words(args, _KUBE_VALUES)
    if pos:
        sub = pos[0].lower()
        known = (matches(sub, _KUBE_READS) or matches(sub, _KUBE_WRITES) or sub in _KUBE_GROUPS
                 or any(r.split(" ", 1)[0] == sub for r in _KUBE_READS | _KUBE_WRITES))
        if not known and sub.replace("-", "").replace("_", "").isalnum() and not sub.isdigit():
            rest = args[args.index(pos[0]) + 1:]
            return reader.argv([f"kubectl-{sub}", *rest])
    return _KUBECTL(name, args, reader)


KUBECTL.table = _KUBECTL  # type: ignore[attr-defined]  # read by the generated docs


HELM = Subcommands(
    reads=frozenset({
        "list", "ls", "status", "history", "hist", "get", "show", "inspect", "search", "template", "lint", "version",
        "diff", "env", "dependency list", "dep list", "repo list", "plugin list", "verify", "completion", "help",
        "dependency ls", "dep ls", "repo ls", "plugin ls",  # helm's alias of each list
        "secrets view", "secrets decrypt",
    }),
    writes=frozenset({"install", "upgrade", "rollback", "uninstall", "delete", "del", "un", "test", "push", "package",
                      "pull", "fetch", "create", "repo", "plugin", "dependency", "dep", "registry"}),
    groups=frozenset({"dependency", "dep", "repo", "plugin", "registry", "secrets"}),
    value_options=frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set",
                             "--set-string", "--set-file", "--version", "--repo", "-o", "--output", "--revision",
                             "--timeout", "--max"}),
)

EKSCTL = Subcommands(
    reads=frozenset({"get", "utils describe-stacks", "utils describe-addon-versions", "version", "info", "help"}),
    writes=frozenset({"create", "delete", "scale", "upgrade", "drain", "set", "unset", "update", "enable", "utils"}),
    groups=frozenset({"utils"}),
    value_options=frozenset({"--cluster", "--region", "-r", "--name", "-n", "--profile", "-p", "-o", "--output"}),
)

FLUX = Subcommands(
    reads=frozenset({"get", "logs", "tree", "stats", "export", "check", "diff", "trace", "events", "version", "help",
                     "completion"}),
    writes=frozenset({"reconcile", "suspend", "resume", "create", "delete", "bootstrap", "install", "uninstall",
                      "push", "tag", "build", "pull", "migrate"}),
    value_options=frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--timeout", "--kind", "--name",
                             "--path", "--source"}),
)

ARGOCD = Subcommands(
    reads=frozenset({"app get", "app list", "app history", "app diff", "app logs", "app manifests", "app resources",
                     "app wait", "appset get", "appset list", "cluster get", "cluster list", "proj get", "proj list",
                     "proj windows list", "repo get", "repo list", "repocreds list", "cert list", "gpg list",
                     "gpg get", "account get", "account list", "account get-user-info", "account can-i", "context",
                     "version", "help", "completion"}),
    writes=frozenset({"app", "appset", "cluster", "proj", "repo", "repocreds", "cert", "gpg", "account", "login",
                      "logout", "relogin", "admin"}),
    groups=frozenset({"app", "appset", "cluster", "proj", "repo", "repocreds", "cert", "gpg", "account"}),
    value_options=frozenset({"--server", "--auth-token", "--grpc-web-root-path", "--config", "--port-forward-namespace",
                             "-o", "--output", "-p", "--project", "-l", "--selector", "--revision", "--kube-context"}),
)

KN = Subcommands(
    reads=frozenset({"* list", "* describe", "version", "help", "completion", "plugin list"}),
    writes=frozenset({"service", "revision", "route", "broker", "trigger", "source", "domain", "channel",
                      "subscription", "eventtype", "container", "secret", "plugin"}),
    groups=frozenset({"service", "revision", "route", "broker", "trigger", "source", "domain", "channel",
                      "subscription", "eventtype", "container", "secret", "plugin"}),
    value_options=frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "--cluster"}),
)

KUBECTX = Subcommands(reads=frozenset({"-c", "--current"}), writes=frozenset({"*"}))

TOOLS = {
    "kubectl": KUBECTL, "k": KUBECTL, "oc": KUBECTL,
    "helm": HELM, "helm3": HELM, "eksctl": EKSCTL, "kubectx": KUBECTX, "kubens": KUBECTX,
    "flux": FLUX, "argocd": ARGOCD, "kn": KN, "stern": always(False), "kubetail": always(False),
}
PROSE = frozenset({"kubectl", "oc", "helm", "helm3", "eksctl", "kubectx", "kubens", "argocd", "stern", "kubetail"})
"""Names distinctive enough to be read as a command when written into a sentence."""
