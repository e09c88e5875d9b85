"""Cloud CLIs: an operation that describes, lists or gets reads; every other one writes."""

from __future__ import annotations

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes
from rcaloop.judge.actions.tools.base import Subcommands, dry_run, matches, words

_AWS_VALUES = frozenset({"--region", "--profile", "--output", "--query", "--endpoint-url", "--color", "--ca-bundle",
                         "--cli-connect-timeout", "--cli-read-timeout", "--cli-binary-format"})
AWS_READS = frozenset({"describe-*", "list-*", "get-*", "head-*", "lookup-*", "search-*", "filter-*", "batch-get-*",
                       "scan", "query", "wait", "help", "ls", "presign", "tail", "simulate-*", "test-*", "estimate-*",
                       "preview-*", "validate-*", "decode-*", "check-*", "detect-*", "verify", "select-*",
                       "download-db-log-file*"})
"""Operations that read, whatever the service (``ec2 describe-instances``, ``s3 ls``, ``logs tail``,
``rds download-db-log-file-portion``)."""
_AWS_LOCAL = frozenset({"configure list", "configure get", "configure list-profiles", "sts get-caller-identity"})
_AWS_CREDENTIALS = frozenset({"sts assume-role", "sts assume-role-with-saml", "sts assume-role-with-web-identity"})
"""Operations that only issue temporary credentials: no resource is created or changed (what is
then done with the credentials is judged as its own command)."""


def aws(name: str, args: list[str], reader: Reader) -> Verdict:
    """``aws [options] SERVICE OPERATION …``; ``s3 cp URL -`` copies to stdout (reads);
    ``SERVICE OPERATION help`` shows the operation's help and runs nothing (``help`` only as the
    one word after the operation: after an option it is that option's value)."""
    opts, pos = words(args, _AWS_VALUES)
    if len(pos) < 2:
        return reads(" ".join([name, *pos]), known=bool(pos) and pos[0] in ("help", "--version"))
    service, op = pos[0].lower(), pos[1].lower()
    verb, pair = f"{name} {service} {op}", f"{service} {op}"
    if matches(op, AWS_READS) or pair in _AWS_LOCAL or pair in _AWS_CREDENTIALS or dry_run(opts) or "--dryrun" in opts:
        return reads(verb)
    if args[-2:] == [pos[1], "help"]:
        return reads(f"{verb} help")
    if service == "ssm" and op == "start-session":
        return reads(verb)
    if service == "s3" and op == "cp" and len(pos) == 4 and pos[3] == "-" and pos[2] != "-":
        return reads(f"{verb} … -")  # a copy to stdout
    return writes(verb)


VERB_READS = frozenset({"list", "describe", "show", "get", "read", "tail", "info", "version", "help", "wait", "query",
                        "logs", "browse", "list-*", "describe-*", "show-*", "get-*", "print-*", "search-*",
                        "check-*", "explain", "find", "history", "exists"})
"""The last command word of ``gcloud``/``az`` commands that read (``compute instances list``,
``group exists``). ``logs`` reads as the last command word (``az container logs``) or before
a reading one (``app logs tail``); before another (``logging logs delete``) it is a group."""
VERB_WRITES = frozenset({
    "create", "delete", "update", "set", "unset", "add-*", "remove-*", "resize", "reset", "start", "stop", "restart",
    "suspend", "resume", "deploy", "ssh", "scp", "import", "export", "patch", "apply", "rollback", "promote",
    "failover", "enable", "disable", "set-*", "deallocate", "scale", "upgrade", "rotate", "revoke", "purge", "clear",
    "redeploy", "reimage", "run", "run-command", "invoke", "execute", "login", "logout", "activate", "attach", "detach",
    "move", "swap", "sync", "cancel", "abort", "regenerate-key", "renew", "restore", "replace", "kill", "drain",
    "cordon", "reboot", "stop-*", "start-*", "delete-*", "create-*", "update-*", "assign", "grant", "undelete",
})
_GCLOUD_VALUES = frozenset({"--project", "--account", "--configuration", "--format", "--verbosity", "--zone",
                            "--region", "--filter", "--limit", "--impersonate-service-account", "-g",
                            "--resource-group", "--subscription", "-o", "--output", "--query", "-n", "--name",
                            "--location", "-l"})


def verb_last(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``gcloud [GROUP…] VERB``, ``az [GROUP…] VERB``: the first command word that is a known
    verb decides; ``--command`` / ``--scripts`` / ``-- …`` of ``ssh`` and ``run-command`` run
    a command line; no verb found writes (fail closed)."""
    opts, pos = words(args, _GCLOUD_VALUES | {"--command", "--scripts"})
    for i, word in enumerate(pos[:6]):
        w = word.lower()
        verb = " ".join([name, *[p.lower() for p in pos[:i + 1]]])
        if matches(w, VERB_READS) and w != "logs":
            return reads(verb)
        if w == "logs" and i + 1 == len(pos):
            return reads(verb)
        if w == "logs" and i + 1 < len(pos) and pos[i + 1].lower() in ("read", "tail", "list", "show"):
            return reads(f"{verb} {pos[i + 1].lower()}")
        if matches(w, VERB_WRITES):
            inner = _command_option(args, reader) if w in ("ssh", "invoke", "run-command", "execute") else None
            return inner if inner is not None else writes(verb)
        if not w.replace("-", "").isalpha():
            break
    if not pos:
        return reads(name, known=bool(opts))
    return writes(" ".join([name, *pos[:2]]), known=False)


def _command_option(args: list[str], reader: Reader) -> Verdict | None:
    for i, a in enumerate(args):
        if a in ("--command", "--scripts") and i + 1 < len(args):
            return reader.line(args[i + 1])
        if a.startswith(("--command=", "--scripts=")):
            return reader.line(a.split("=", 1)[1])
        if a == "--":
            return reader.argv(args[i + 1:])
    return None


_GSUTIL_GROUPS = frozenset({"iam", "acl", "versioning", "lifecycle", "cors", "logging", "label", "web", "defacl", "kms",
                            "notification", "retention", "ubla", "pap", "rpo", "autoclass", "requesterpays"})
GSUTIL = Subcommands(
    reads=frozenset({"ls", "cat", "du", "stat", "hash", "version", "help", "signurl",
                     *(f"{g} get" for g in _GSUTIL_GROUPS), "notification list", "kms serviceaccount"}),
    writes=frozenset({"cp", "mv", "rm", "rsync", "mb", "rb", "setmeta", "compose", "rewrite", *_GSUTIL_GROUPS}),
    groups=_GSUTIL_GROUPS,
    value_options=frozenset({"-o", "-h", "-u", "-p"}),
)

TOOLS = {"aws": aws, "awslocal": aws, "gcloud": verb_last, "az": verb_last, "gsutil": GSUTIL, "gcutil": GSUTIL}
PROSE = frozenset({"aws", "gcloud", "az", "gsutil"})
