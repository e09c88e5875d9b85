"""Service and runtime CLIs: GitHub, service meshes, rollouts, alerting, queues, profilers,
debuggers, web servers. Read-only subcommands or options listed; everything else writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes
from rcaloop.judge.actions.tools.base import Subcommands, scratch, words

_GH_GROUPS = frozenset({"pr", "issue", "run", "workflow", "release", "repo", "secret", "variable", "cache", "label",
                        "gist", "auth", "config", "extension", "codespace", "ruleset", "project", "org", "search",
                        "attestation", "alias", "gpg-key", "ssh-key", "status", "browse", "api", "cs", "ext"})


def _gh_api(args: list[str], reader: Reader) -> Verdict:
    """``gh api PATH`` is a ``GET``; ``-X``/``--method`` other than GET, or fields (``-f``/``-F``/``--input``),
    write."""
    method = ""
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt in ("-X", "--method"):
            method = (value if eq else (args[i + 1] if i + 1 < len(args) else "")).upper()
    fields = any(a.partition("=")[0] in ("-f", "-F", "--field", "--raw-field", "--input") for a in args)
    if (method or ("POST" if fields else "GET")) in ("GET", "HEAD"):
        return reads("gh api")
    return writes(f"gh api {method or 'POST'}")


GH = Subcommands(
    reads=frozenset({"* list", "* view", "* status", "* diff", "* checks", "* watch", "* get", "* verify", "* check",
                     "search *", "status", "browse", "version", "help", "completion", "auth token", "cache list",
                     "run list", "ruleset check"}),
    writes=frozenset({f"{g} *" for g in _GH_GROUPS}),
    groups=_GH_GROUPS - {"status", "browse", "api"},
    value_options=frozenset({"-R", "--repo", "-L", "--limit", "-w", "--workflow", "-s", "--state", "-S", "--search",
                             "-b", "--branch", "-u", "--user", "-a", "--author", "--json", "-q", "--jq", "-t",
                             "--template", "-e", "--event", "--hostname", "-l", "--label", "-A", "--assignee"}),
    inner=(("api", _gh_api),),
)

_ROLLOUT_READS = ("get", "status", "list", "version", "lint", "dashboard", "help", "completion")
_ROLLOUT_WRITES = ("promote", "abort", "retry", "restart", "set", "pause", "undo", "create", "terminate",
                   "notifications")

ARGO_ROLLOUTS = Subcommands(
    reads=frozenset(_ROLLOUT_READS),
    writes=frozenset(_ROLLOUT_WRITES),
    value_options=frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "--timeout"}),
)
"""``kubectl argo rollouts …`` (the ``kubectl-argo-rollouts`` plugin)."""

KUBECTL_ARGO = Subcommands(
    reads=frozenset(f"rollouts {r}" for r in _ROLLOUT_READS),
    writes=frozenset({"rollouts", *(f"rollouts {w}" for w in _ROLLOUT_WRITES)}),
    groups=frozenset({"rollouts"}),
    value_options=ARGO_ROLLOUTS.value_options,
)

_MESH_VALUES = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "-i", "--istioNamespace",
                          "-r", "--revision", "-l", "--selector", "--from", "--to", "-t", "--time-window"})
ISTIOCTL = Subcommands(
    reads=frozenset({"analyze", "version", "proxy-status", "ps", "proxy-config", "pc", "proxy-config *", "pc *",
                     "describe", "x describe", "experimental describe", "verify-install", "precheck", "bug-report",
                     "dashboard", "dashboard *", "admin log", "waypoint list", "waypoint status", "ztunnel-config",
                     "ztunnel-config *", "validate", "help", "completion", "x precheck", "tag list", "check-inject",
                     "manifest generate", "manifest diff", "profile list", "profile dump", "profile diff"}),
    writes=frozenset({"install", "uninstall", "upgrade", "kube-inject", "x", "experimental", "tag", "waypoint",
                      "admin", "manifest", "profile"}),
    groups=frozenset({"proxy-config", "pc", "x", "experimental", "dashboard", "admin", "waypoint", "ztunnel-config",
                      "tag", "manifest", "profile"}),
    value_options=_MESH_VALUES,
)

LINKERD = Subcommands(
    reads=frozenset({"check", "version", "diagnostics", "diagnostics *", "viz stat", "viz top", "viz tap", "viz edges",
                     "viz routes", "viz check", "viz dashboard", "viz list", "viz profile", "stat", "top", "tap",
                     "edges", "routes", "dashboard", "authz", "identity", "help", "completion", "jaeger check",
                     "jaeger list", "multicluster check", "multicluster gateways", "viz stat-inbound",
                     "viz stat-outbound", "policy"}),
    writes=frozenset({"install", "uninstall", "upgrade", "inject", "uninject", "prune", "viz", "jaeger",
                      "multicluster", "viz install", "viz uninstall"}),
    groups=frozenset({"viz", "jaeger", "multicluster", "diagnostics"}),
    value_options=_MESH_VALUES,
)

CMCTL = Subcommands(
    reads=frozenset({"status", "status certificate", "check", "check api", "inspect", "inspect secret", "version",
                     "help", "completion", "experimental check", "x check"}),
    writes=frozenset({"renew", "approve", "deny", "create", "convert", "install", "uninstall", "upgrade",
                      "experimental", "x"}),
    groups=frozenset({"status", "check", "inspect", "experimental", "x", "create"}),
    value_options=frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output"}),
)

AMTOOL = Subcommands(
    reads=frozenset({"alert", "alert query", "silence", "silence query", "check-config", "config", "config show",
                     "config routes", "config routes show", "config routes test", "cluster", "cluster show",
                     "template render", "version", "help"}),
    writes=frozenset({"alert add", "silence add", "silence expire", "silence import", "silence update"}),
    groups=frozenset({"alert", "silence", "config", "config routes", "cluster", "template"}),
    value_options=frozenset({"--alertmanager.url", "--config.file", "-o", "--output", "--timeout"}),
)

PROMTOOL = Subcommands(
    reads=frozenset({"check *", "query *", "test rules", "debug *", "tsdb analyze", "tsdb list", "tsdb dump",
                     "tsdb dump-openmetrics", "tsdb bench", "promql format", "version", "help"}),
    writes=frozenset({"tsdb create-blocks-from", "push", "push metrics", "promql label-matchers"}),
    groups=frozenset({"check", "query", "test", "debug", "tsdb", "promql", "push"}),
)

CELERY = Subcommands(
    reads=frozenset({"inspect", "inspect *", "status", "events", "report", "result", "graph", "list", "list *",
                     "version", "help", "shell"}),
    writes=frozenset({"control", "purge", "call", "migrate", "upgrade", "amqp", "worker", "beat", "multi"}),
    groups=frozenset({"inspect", "list"}),
    value_options=frozenset({"-A", "--app", "-b", "--broker", "--result-backend", "--loader", "--config", "--workdir",
                             "-d", "--destination", "-t", "--timeout", "-j", "--json"}),
    honours_dry_run=False,
)

PY_SPY = Subcommands(reads=frozenset({"dump", "top", "help", "version", "completions"}),
                     writes=frozenset({"record"}),
                     value_options=frozenset({"-p", "--pid", "-r", "--rate", "-d", "--duration", "-o", "--output"}))
"""``py-spy dump``/``top`` sample a running process; ``record`` writes a profile file."""


def only_options(reading: Iterable[str], value_options: Iterable[str] = (), *,
                 bare_reads: bool = True) -> Callable[[str, list[str], Reader], Verdict]:
    """A tool judged by its options, failing closed: it reads only when every option it is
    given is one of ``reading`` (``kcat -L``, ``nginx -t``); any other option writes."""
    allowed = frozenset(reading)
    takes = frozenset(value_options)

    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        opts, pos = words(args, takes)
        if not opts and not (bare_reads or pos):
            return writes(name, known=False)
        other = next((o for o in opts if o.split("=", 1)[0] not in allowed and o.split("=", 1)[0] not in takes), None)
        return writes(f"{name} {other}") if other else reads(name)

    judge.reading, judge.writing = tuple(sorted(allowed | takes)), ()  # type: ignore[attr-defined]  # the docs
    return judge


KCAT = only_options(("-L", "-C", "-Q", "-J", "-e", "-q", "-u", "-E", "-V", "-h", "--help", "-v"),
                    ("-b", "-t", "-p", "-o", "-c", "-f", "-G", "-X", "-s", "-k", "-K", "-D", "-m", "-F"),
                    bare_reads=False)
"""``-L`` (metadata), ``-C`` (consume), ``-Q`` (offsets) read; ``-P`` (produce) and anything else write."""

def nginx(name: str, args: list[str], reader: Reader) -> Verdict:
    """``-t``/``-T`` test or print the configuration, ``-v``/``-V`` the version; ``-s SIGNAL`` and
    starting nginx write."""
    opts, _ = words(args, ("-c", "-p", "-e", "-g", "-s"))
    if opts and all(o in ("-t", "-T", "-v", "-V", "-h", "-?", "-q") or o in ("-c", "-p", "-e", "-g") for o in opts) \
            and any(o in ("-t", "-T", "-v", "-V", "-h", "-?") for o in opts):
        return reads(f"{name} {opts[0]}")
    return writes(" ".join([name, *opts[:1]]))


PT_READS = ("pt-query-digest", "pt-summary", "pt-mysql-summary", "pt-stalk", "pt-pmp", "pt-diskstats", "pt-ioprofile",
            "pt-variable-advisor", "pt-duplicate-key-checker", "pt-index-usage", "pt-visual-explain",
            "pt-config-diff", "pt-show-grants", "pt-mext", "pt-align", "pt-fingerprint", "pt-find", "pt-sift",
            "pt-table-usage", "pt-upgrade", "pt-deadlock-logger", "pt-fk-error-logger", "pt-slave-find",
            "pt-replica-find", "pt-heartbeat")
"""Percona toolkit tools that read (``pt-query-digest``); ``pt-kill``, ``pt-online-schema-change``,
``pt-archiver`` … are not listed and write."""


def pt_tool(name: str, args: list[str], reader: Reader) -> Verdict:
    """reads, except a ``--review``/``--history``/``--execute``/``--update``/``--dest`` table it writes
    into (``pt-query-digest --review``, ``pt-heartbeat --update``)."""
    writing = ("--review", "--history", "--execute", "--update", "--dest", "--create-review-table",
               "--create-history-table", "--kill", "--daemonize", "--replace", "--create-table")
    hit = next((a for a in args if a.split("=", 1)[0] in writing), None)
    return writes(f"{name} {hit.split('=', 1)[0]}") if hit else reads(name)


_GDB_READ_COMMANDS = frozenset({"bt", "backtrace", "where", "info", "i", "frame", "f", "up", "down", "list", "l",
                                "x", "ptype", "whatis", "disassemble", "show", "detach", "quit", "q", "thread",
                                "py-bt", "py-list", "py-locals", "py-print", "py-up", "py-down", "info threads",
                                "echo", "p", "print", "output", "inspect", "explore"})
_GDB_SETTINGS = ("pagination", "print", "logging", "confirm", "height", "width", "style", "verbose", "listsize",
                 "filename-display", "auto-load", "debuginfod", "sysroot", "solib-search-path")


def gdb_command(text: str) -> bool:
    """A gdb command that only looks: a backtrace, ``info``, ``x``, ``list``, a ``print`` of a value
    (no call, no assignment), a setting of gdb's own; ``thread apply … CMD`` as its CMD."""
    parts = text.split()
    if not parts:
        return True
    head = parts[0].split("/", 1)[0].lower()
    if head == "thread" and len(parts) > 3 and parts[1] == "apply":
        return gdb_command(" ".join(parts[3:]))
    if head == "set" and len(parts) > 1:
        return parts[1] in _GDB_SETTINGS
    if head in ("p", "print", "output", "inspect", "call", "printf"):
        body = text.split(None, 1)[1] if len(parts) > 1 else ""
        return head != "call" and "(" not in body and not any(op in body.replace("==", "") for op in
                                                                 ("=", "++", "--"))
    return head in _GDB_READ_COMMANDS


def gdb(name: str, args: list[str], reader: Reader) -> Verdict:
    """attaching (``-p PID``) or opening a core reads; each ``-ex`` command must only look (``bt``,
    ``info``, ``print VAR``): ``call``, an assignment, ``kill``, ``signal``, ``jump``, a function call
    in a ``print``, a ``-x`` script or running a program (``run``, ``--args``) write."""
    if any(a in ("-x", "--command", "-ix", "--init-command", "--args") for a in args):
        return writes(f"{name} {next(a for a in args if a in ('-x', '--command', '-ix', '--init-command', '--args'))}")
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt in ("-ex", "--eval-command", "-iex", "--init-eval-command"):
            text = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            if not gdb_command(text):
                return writes(f"{name} -ex '{text}'")
    return reads(name)


_JCMD_READS = frozenset({"help", "Thread.print", "GC.heap_info", "GC.class_histogram", "GC.class_stats",
                         "GC.finalizer_info", "VM.version", "VM.flags", "VM.system_properties", "VM.command_line",
                         "VM.uptime", "VM.info", "VM.classloader_stats", "VM.classloaders", "VM.metaspace",
                         "VM.stringtable", "VM.symboltable", "VM.dynlibs", "VM.events", "VM.print_touched_methods",
                         "VM.class_hierarchy", "VM.native_memory", "Compiler.codecache", "Compiler.codelist",
                         "Compiler.queue", "Compiler.directives_print", "Compiler.CodeHeap_Analytics",
                         "JFR.check", "PerfCounter.print", "ManagementAgent.status", "System.map", "VM.log",
                         "Thread.dump_to_file"})
_JCMD_WRITING_ARGS = ("baseline", "shutdown", "disable", "output=", "what=", "decorators=", "rotate")


def jcmd(name: str, args: list[str], reader: Reader) -> Verdict:
    """``jcmd`` / ``jcmd -l`` list JVMs; ``jcmd PID Thread.print``, ``GC.heap_info``, ``VM.flags`` and the
    other listed diagnostic commands read; ``GC.run``, ``GC.heap_dump``, ``JFR.start``, ``VM.set_flag``
    and every other command write (so do ``VM.native_memory baseline``/``VM.log output=…``)."""
    opts, pos = words(args, ("-f",))
    if "-f" in opts:
        return writes(f"{name} -f")
    if len(pos) < 2:
        return reads(name)
    command = pos[1]
    if command == "Thread.dump_to_file" or command not in _JCMD_READS:
        return writes(f"{name} {command}")
    if any(p.startswith(_JCMD_WRITING_ARGS) for p in pos[2:]):
        return writes(f"{name} {command} {pos[2]}")
    return reads(f"{name} {command}")


_JMAP_READS = only_options(("-heap", "-histo", "-histo:live", "-clstats", "-finalizerinfo", "-h", "-help",
                            "-version", "-F", "-J-d64"), ())


def jmap(name: str, args: list[str], reader: Reader) -> Verdict:
    """``-histo``, ``-heap``, ``-clstats`` read, and so does ``-dump:…,file=F`` into a scratch
    directory (``/tmp``); a dump anywhere else, or an unlisted option, writes."""
    dump = next((a for a in args if a.startswith("-dump")), None)
    if dump is not None:
        target = next((p.split("=", 1)[1] for p in dump.split(",") if p.startswith("file=")), "")
        return reads(f"{name} -dump") if scratch(target) else writes(f"{name} -dump {target}".strip())
    return _JMAP_READS(name, args, reader)


TOOLS = {
    "gh": GH, "kubectl-argo": KUBECTL_ARGO, "kubectl-argo-rollouts": ARGO_ROLLOUTS, "istioctl": ISTIOCTL,
    "linkerd": LINKERD, "cmctl": CMCTL, "kubectl-cert_manager": CMCTL, "amtool": AMTOOL, "promtool": PROMTOOL,
    "celery": CELERY, "py-spy": PY_SPY, "kcat": KCAT, "kafkacat": KCAT, "nginx": nginx,
    **dict.fromkeys(PT_READS, pt_tool), "gdb": gdb, "jcmd": jcmd, "jmap": jmap,
}
PROSE = frozenset({"istioctl", "linkerd", "amtool", "cmctl", "jcmd"})
