"""Infrastructure and platform tools: terraform, ansible, git, vault, etcd, consul, nomad,
patroni, postgres control. Read-only subcommands listed; everything else writes."""

from __future__ import annotations

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes
from rcaloop.judge.actions.tools.base import Subcommands, after_options, has, scratch, words

TERRAFORM = Subcommands(
    reads=frozenset({"plan", "show", "validate", "output", "state list", "state show", "state pull", "graph", "version",
                     "providers", "providers schema", "providers lock", "console", "init", "get", "workspace list",
                     "workspace show", "metadata", "modules", "help", "-version", "run-all plan", "run-all validate",
                     "run-all output", "run-all show", "run-all init", "hclfmt --check", "render-json",
                     "output-module-groups", "graph-dependencies", "validate-inputs", "terragrunt-info"}),
    writes=frozenset({"apply", "destroy", "import", "taint", "untaint", "refresh", "state rm", "state mv", "state push",
                      "state replace-provider", "force-unlock", "workspace new", "workspace delete",
                      "workspace select", "fmt", "login", "logout", "test", "run-all apply", "run-all destroy",
                      "hclfmt", "providers mirror"}),
    groups=frozenset({"state", "workspace", "providers", "run-all"}),
    value_options=frozenset({"-var", "-var-file", "-target", "-replace", "-state", "-lock-timeout", "-parallelism"}),
    read_flags=(("fmt", ("-check", "--check", "-diff")), ("hclfmt", ("--check", "--terragrunt-check"))),
    write_flags=(("init", ("-migrate-state", "-force-copy")), ("run-all init", ("-migrate-state", "-force-copy"))),
)

_ANSIBLE_READ_FLAGS = ("--check", "-C", "--syntax-check", "--list-tasks", "--list-hosts", "--list-tags", "--version",
                       "--help", "-h")


def ansible_playbook(name: str, args: list[str], reader: Reader) -> Verdict:
    """runs the playbook (writes) unless ``--check``, ``--syntax-check`` or a ``--list-*`` option only looks."""
    opts, _ = words(args, ("-i", "--inventory", "-l", "--limit", "-e", "--extra-vars", "-t", "--tags", "--skip-tags",
                           "-u", "--user", "-f", "--forks", "--vault-id", "--vault-password-file"))
    return reads(name) if has(opts, *_ANSIBLE_READ_FLAGS) else writes(name)


_ANSIBLE_READ_MODULES = frozenset({"ping", "setup", "gather_facts", "debug", "stat", "slurp", "find", "service_facts",
                                   "package_facts", "command_info", "uri_info", "win_ping", "list_files"})


def ansible(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``ansible HOSTS -m MODULE -a ARGS``: fact-gathering modules read; ``command``/``shell``/
    ``raw`` run their argument (the default module is ``command``); other modules write."""
    opts, _ = words(args, ("-i", "--inventory", "-l", "--limit", "-e", "--extra-vars", "-u", "--user", "-f", "--forks",
                           "-m", "--module-name", "-a", "--args", "-b", "--become-user"))
    module, arg = "command", ""
    for i, a in enumerate(args):
        if a in ("-m", "--module-name") and i + 1 < len(args):
            module = args[i + 1].rsplit(".", 1)[-1]
        if a in ("-a", "--args") and i + 1 < len(args):
            arg = args[i + 1]
    if has(opts, "--check", "-C", "--list-hosts", "--version"):
        return reads(name)
    if module in _ANSIBLE_READ_MODULES:
        return reads(f"{name} -m {module}")
    if module in ("command", "shell", "raw"):
        return reader.line(arg) if arg else reads(name)
    return writes(f"{name} -m {module}")


ANSIBLE_GALAXY = Subcommands(
    reads=frozenset({"list", "search", "info", "role list", "role search", "role info", "collection list",
                     "collection verify"}),
    writes=frozenset({"install", "remove", "delete", "import", "setup", "init", "login", "role", "collection"}),
    groups=frozenset({"role", "collection"}),
    value_options=frozenset({"-s", "--server", "--token", "--api-key", "-p", "--roles-path", "--collections-path",
                             "-r", "--role-file", "--requirements-file", "--author", "--galaxy-tags", "--platforms",
                             "--timeout"}),
    honours_dry_run=False,
    help_options=frozenset({"-h", "--help"}),
)
"""``ansible-galaxy [role|collection] ACTION`` (a bare action is a role's): listing, searching,
showing a role and verifying installed collections against the server read; installing,
removing, importing to or deleting from Galaxy, and creating a skeleton write. ``-h`` is
argparse's help; there is no ``--dry-run``."""


def ansible_lint(name: str, args: list[str], reader: Reader) -> Verdict:
    """lints playbooks and roles (reads); ``--fix`` (formerly ``--write``) rewrites the files it
    lints, ``--generate-ignore`` writes ``.ansible-lint-ignore``, ``--sarif-file`` a report
    outside a scratch directory (those write). A ``write_list`` in the project's config can
    turn fixing on too: that edits the checkout, not a running system."""
    for i, a in enumerate(args):
        opt, _, value = a.partition("=")
        if opt in ("--fix", "--write", "--generate-ignore"):
            return writes(f"{name} {opt}")
        if opt == "--sarif-file" and not scratch(value or (args[i + 1] if i + 1 < len(args) else "")):
            return writes(f"{name} {opt}")
    return reads(name)


def _git_branch(args: list[str], reader: Reader) -> Verdict:
    opts, pos = words(args, ("--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort",
                             "--format", "--color", "--column"))
    if has(opts, "-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "--set-upstream-to", "-u",
           "--unset-upstream", "--edit-description", "-f", "--force") or (pos and not has(opts, "-l", "--list")):
        return writes("git branch")
    return reads("git branch")


def _git_tag(args: list[str], reader: Reader) -> Verdict:
    opts, pos = words(args, ("--contains", "--no-contains", "--points-at", "--sort", "--format", "-n"))
    if has(opts, "-d", "--delete", "-a", "--annotate", "-s", "--sign", "-m", "--message", "-f", "--force", "-u"):
        return writes("git tag")
    return reads("git tag") if not pos or has(opts, "-l", "--list", "-v", "--verify") else writes("git tag")


def _git_config(args: list[str], reader: Reader) -> Verdict:
    opts, pos = words(args, ("--file", "-f", "--blob", "--type", "--default"))
    if has(opts, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--show-origin") or (
            len(pos) == 1 and not has(opts, "--unset", "--unset-all", "--add", "--replace-all", "--edit", "-e",
                                      "--remove-section", "--rename-section")):
        return reads("git config")
    return writes("git config")


def _git_stash(args: list[str], reader: Reader) -> Verdict:
    _, pos = words(args)
    return reads(f"git stash {pos[0]}") if pos and pos[0] in ("list", "show") else writes(
        " ".join(["git stash", *pos[:1]]))


def _git_remote(args: list[str], reader: Reader) -> Verdict:
    _, pos = words(args)
    sub = pos[0] if pos else ""
    return reads(f"git remote {sub}".strip()) if sub in ("", "show", "get-url") else writes(f"git remote {sub}")


GIT = Subcommands(
    reads=frozenset({"log", "show", "diff", "status", "blame", "annotate", "shortlog", "describe", "rev-parse",
                     "rev-list", "ls-files", "ls-tree", "ls-remote", "grep", "cat-file", "reflog", "reflog show",
                     "whatchanged", "version", "help", "fetch", "clone", "name-rev", "merge-base", "for-each-ref",
                     "show-ref", "show-branch", "cherry", "range-diff", "count-objects", "fsck", "verify-commit",
                     "verify-tag", "check-ignore", "check-attr", "var", "worktree list", "submodule status",
                     "submodule summary", "lfs ls-files", "lfs status", "lfs env", "difftool", "bisect log",
                     "bisect view", "notes list", "notes show", "archive", "bundle verify", "bundle list-heads"}),
    writes=frozenset({"push", "commit", "reset", "revert", "merge", "rebase", "checkout", "switch", "restore", "pull",
                      "clean", "rm", "mv", "cherry-pick", "am", "apply", "gc", "prune", "init", "add", "notes",
                      "filter-branch", "filter-repo", "update-ref", "update-index", "replace", "submodule", "worktree",
                      "lfs", "bisect", "reflog", "stash", "tag", "branch", "config", "remote"}),
    groups=frozenset({"reflog", "worktree", "submodule", "lfs", "bisect", "notes", "bundle"}),
    value_options=frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"}),
    read_flags=tuple((sub, ("-n", "--dry-run")) for sub in ("clean", "add", "rm", "mv")),
    inner=(("branch", _git_branch), ("tag", _git_tag), ("config", _git_config), ("stash", _git_stash),
           ("remote", _git_remote)),
)

VAULT = Subcommands(
    reads=frozenset({"read", "list", "status", "version", "kv get", "kv list", "kv metadata get", "token lookup",
                     "token capabilities", "auth list", "secrets list", "policy list", "policy read", "audit list",
                     "operator raft list-peers", "operator key-status", "operator members", "operator usage",
                     "lease lookup", "plugin list", "plugin info", "namespace list", "namespace lookup", "print",
                     "path-help", "help", "monitor", "debug", "pki health-check", "pki list-intermediates",
                     "pki verify-sign", "events subscribe"}),
    writes=frozenset({"write", "delete", "kv put", "kv delete", "kv destroy", "kv patch", "kv rollback", "kv undelete",
                      "kv metadata put", "kv metadata delete", "kv metadata patch", "token revoke", "token renew",
                      "token create", "lease revoke", "lease renew", "login", "unwrap", "operator seal",
                      "operator unseal", "operator step-down", "operator rotate", "operator init", "secrets enable",
                      "secrets disable", "secrets move", "secrets tune", "auth enable", "auth disable", "auth tune",
                      "policy write", "policy delete", "audit enable", "audit disable", "patch"}),
    groups=frozenset({"kv", "kv metadata", "token", "auth", "secrets", "policy", "audit", "operator", "operator raft",
                      "lease", "plugin", "namespace", "pki", "events"}),
    value_options=frozenset({"-address", "-namespace", "-ns", "-format", "-field", "-mount", "-output-curl-string"}),
)

def _etcd_snapshot(args: list[str], reader: Reader) -> Verdict:
    """``snapshot status`` reads; ``snapshot save FILE`` reads into a scratch directory (``/tmp``) and
    writes anywhere else (it may overwrite a live file, the member's own ``db``); ``restore`` writes."""
    _, pos = words(args)
    sub = pos[0].lower() if pos else ""
    target = pos[1] if len(pos) > 1 else ""
    if sub == "status" or (sub == "save" and scratch(target)):
        return reads(f"etcdctl snapshot {sub}")
    return writes(f"etcdctl snapshot {sub} {target}".strip())


ETCDCTL = Subcommands(
    reads=frozenset({"get", "member list", "endpoint status", "endpoint health", "endpoint hashkv", "version",
                     "alarm list", "lease list", "lease timetolive", "watch", "user list", "user get", "role list",
                     "role get", "auth status", "snapshot status", "check datascale", "help"}),
    writes=frozenset({"put", "del", "txn", "compaction", "compact", "defrag", "snapshot restore", "alarm disarm",
                      "member add", "member remove", "member update", "member promote", "lease grant", "lease revoke",
                      "lease keep-alive", "move-leader", "lock", "elect", "make-mirror", "auth enable", "auth disable",
                      "user add", "user delete", "role add", "role delete", "downgrade", "snapshot save"}),
    inner=(("snapshot", _etcd_snapshot),),
    groups=frozenset({"member", "endpoint", "alarm", "lease", "snapshot", "user", "role", "auth", "check"}),
    value_options=frozenset({"--endpoints", "--cacert", "--cert", "--key", "--user", "-w", "--write-out",
                             "--dial-timeout", "--command-timeout"}),
)

CONSUL = Subcommands(
    reads=frozenset({"members", "info", "version", "monitor", "kv get", "kv export", "catalog *",
                     "operator raft list-peers",
                     "operator autopilot get-config", "acl policy list", "acl token list", "acl policy read",
                     "acl token read", "services list", "intention get", "intention list", "intention check",
                     "config read", "config list", "debug", "rtt", "watch", "help"}),
    writes=frozenset({"kv put", "kv delete", "kv import", "leave", "force-leave", "join", "reload", "maint",
                      "snapshot restore", "operator raft remove-peer", "services register", "services deregister",
                      "intention create", "intention delete", "config write", "config delete", "lock", "exec"}),
    groups=frozenset({"kv", "catalog", "operator", "operator raft", "operator autopilot", "acl", "acl policy",
                      "acl token", "services", "intention", "config", "snapshot"}),
)

NOMAD = Subcommands(
    reads=frozenset({"status", "job status", "job inspect", "job history", "job plan", "job validate", "plan",
                     "validate", "inspect", "node status", "alloc status", "alloc logs", "alloc fs", "logs", "fs",
                     "server members", "deployment status", "deployment list", "eval status", "eval list", "version",
                     "namespace list", "namespace status", "var get", "var list", "operator raft list-peers", "monitor",
                     "agent-info", "system gc --dry-run", "help"}),
    writes=frozenset({"run", "stop", "job run", "job stop", "job revert", "job dispatch", "job scale", "job promote",
                      "node drain", "node eligibility", "alloc restart", "alloc stop", "alloc signal", "alloc exec",
                      "deployment promote", "deployment fail", "deployment pause", "deployment resume", "system gc",
                      "var put", "var purge", "exec"}),
    groups=frozenset({"job", "node", "alloc", "server", "deployment", "eval", "namespace", "var", "operator",
                      "operator raft", "system"}),
)

PATRONICTL = Subcommands(
    reads=frozenset({"list", "history", "show-config", "topology", "version", "dsn", "query", "help"}),
    writes=frozenset({"failover", "switchover", "restart", "reinit", "pause", "resume", "edit-config", "reload",
                      "remove", "flush"}),
    value_options=frozenset({"-c", "--config-file", "-d", "--dcs-url"}),
)

PG_CTL = Subcommands(reads=frozenset({"status", "--version", "help"}),
                     writes=frozenset({"start", "stop", "restart", "reload", "promote", "kill", "init", "initdb",
                                       "logrotate", "register", "unregister"}),
                     value_options=frozenset({"-D", "--pgdata", "-l", "--log", "-m", "--mode", "-o", "--options",
                                              "-t", "--timeout", "-w", "-W"}))

KUBEADM = Subcommands(reads=frozenset({"version", "certs check-expiration", "token list", "config view", "config print",
                                       "config images list", "upgrade plan", "help"}),
                      writes=frozenset({"init", "join", "reset", "upgrade apply", "upgrade node", "certs renew",
                                        "token create", "token delete", "config migrate", "config images pull"}),
                      groups=frozenset({"certs", "token", "config", "config images", "upgrade", "alpha"}))


def _pg_ctlcluster(name: str, args: list[str], reader: Reader) -> Verdict:
    """``pg_ctlcluster VERSION CLUSTER ACTION``."""
    _, pos = words(args)
    return PG_CTL(name, pos[2:], reader) if len(pos) > 2 else reads(name)


def _runs_script(name: str, args: list[str], reader: Reader) -> Verdict:
    """``make TARGET``, ``just RECIPE``: runs a recipe that cannot be read here (writes)."""
    rest = after_options(args)
    return writes(" ".join([name, *rest[:1]]), known=bool(rest))


TOOLS = {
    "terraform": TERRAFORM, "tofu": TERRAFORM, "terragrunt": TERRAFORM, "ansible-playbook": ansible_playbook,
    "ansible": ansible, "ansible-inventory": Subcommands(reads=frozenset({"*"})),
    "ansible-galaxy": ANSIBLE_GALAXY, "ansible-lint": ansible_lint,
    "ansible-config": Subcommands(reads=frozenset({"list", "dump", "view"})),
    "ansible-doc": Subcommands(reads=frozenset({"*"})),
    "git": GIT, "vault": VAULT, "etcdctl": ETCDCTL, "consul": CONSUL, "nomad": NOMAD, "patronictl": PATRONICTL,
    "pg_ctl": PG_CTL, "pg_ctlcluster": _pg_ctlcluster, "kubeadm": KUBEADM, "make": _runs_script, "just": _runs_script,
}
PROSE = frozenset({"terraform", "tofu", "terragrunt", "ansible-playbook", "ansible", "git", "vault", "etcdctl",
                   "consul", "nomad", "patronictl", "pg_ctl", "pg_ctlcluster", "kubeadm"})
